import { Link } from 'react-router-dom';
import { refusalFor, type Audience } from './access';

/** What someone outside a page's audience sees instead of a broken or empty page. */
export function NotAllowed({ audience }: { audience: Audience }) {
  return (
    <section className="card dash-not-allowed" aria-labelledby="not-allowed-title">
      <h1 id="not-allowed-title">Not allowed</h1>
      <p>{refusalFor(audience)}</p>
      <Link className="btn btn-secondary" to="/dashboard">
        Go to My Profile
      </Link>
    </section>
  );
}
