import { Link } from 'react-router-dom';
import { PartsGrid } from '../components/parts-grid';

export default function HomePage() {
  return (
    <div className="home">
      <section className="hero">
        <h1>Motorcycle parts, tools and gear in bulk</h1>
        <p>Genuine parts for workshops and dealers, shipped from stock.</p>
        <Link className="btn" to="/login">
          Get Started
        </Link>
      </section>
      <section className="page" aria-labelledby="parts-heading">
        <h2 id="parts-heading">Parts</h2>
        <PartsGrid />
      </section>
    </div>
  );
}
