import { Link } from 'react-router-dom';

export function NotFound() {
  return (
    <section className="not-found">
      <img src="/images/not-found.svg" alt="404 — page not found" width={480} height={320} />
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}
