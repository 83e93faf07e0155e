import { Link } from 'react-router-dom';

/** The static footer of docs/product.md: links only, no behaviour. */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="footer-columns">
        <section>
          <h2>Services</h2>
          <ul>
            <li>
              <Link to="/parts?category=parts">Bulk parts</Link>
            </li>
            <li>
              <Link to="/parts?category=tools">Tools</Link>
            </li>
            <li>
              <Link to="/parts?category=gear">Riding gear</Link>
            </li>
          </ul>
        </section>
        <section>
          <h2>Company</h2>
          <ul>
            <li>
              <Link to="/reviews">Reviews</Link>
            </li>
            <li>
              <Link to="/blogs">Blogs</Link>
            </li>
            <li>
              <Link to="/myPortfolio">My Portfolio</Link>
            </li>
          </ul>
        </section>
        <section>
          <h2>Legal</h2>
          <ul>
            <li>
              <Link to="/">Terms of use</Link>
            </li>
            <li>
              <Link to="/">Privacy policy</Link>
            </li>
            <li>
              <Link to="/">Cookie policy</Link>
            </li>
          </ul>
        </section>
      </div>
      <p className="copyright">Copyright © {year} MotoParts. All rights reserved.</p>
    </footer>
  );
}
