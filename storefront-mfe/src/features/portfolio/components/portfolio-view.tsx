import { Link } from 'react-router-dom';
import { assetUrl } from '@motoparts/state/frame';

const SKILLS = [
  'TypeScript',
  'JavaScript (ES2023)',
  'React',
  'Redux Toolkit and RTK Query',
  'React Router',
  'Module Federation',
  'HTML and accessible markup',
  'CSS and responsive layout',
  'Node.js',
  'Koa and Express',
  'MongoDB and Mongoose',
  'Firebase Authentication',
  'Stripe payments',
  'Jest and Playwright',
  'Git and CI',
];

const PROJECTS = [
  {
    name: 'MotoParts',
    summary:
      'This shop: a micro-frontend storefront where workshops order motorcycle parts in bulk and pay by card, with an admin dashboard for products, stock, orders and users.',
    stack: 'React, Redux Toolkit, Module Federation, Koa, MongoDB, Firebase Auth, Stripe',
    link: '/',
  },
  {
    name: 'Trailhead Tours',
    summary:
      'A booking site for guided off-road motorcycle tours: date and seat selection, a waiting list for full tours and e-mail confirmations for riders and guides.',
    stack: 'React, React Router, Node.js, Express, MongoDB',
  },
  {
    name: 'Pit Stop Planner',
    summary:
      'A maintenance log for riders that turns mileage into reminders for oil changes, chain care and tyre checks, and works offline in the garage.',
    stack: 'React, IndexedDB, service workers, Jest',
  },
];

/**
 * The portfolio page's content. It is also rendered at build time (src/app/prerender.tsx) as the
 * page's first screen, so keep it free of data, effects and browser-only APIs: the same markup
 * must come out of react-dom/server and the browser. `prerendered` marks the build's copy for
 * the shell.
 */
export function PortfolioView({ prerendered }: { prerendered?: string }) {
  return (
    <div className="page" data-prerendered={prerendered}>
      <header className="card portfolio-intro">
        {/* Lazy: every page's HTML carries this first screen, hidden but on its own route, and a
            hidden lazy image is not fetched (nor preloaded by react-dom/server). */}
        <img
          loading="lazy"
          src={assetUrl('/images/avatar-default.svg')}
          alt="Portrait of Nadia Karim"
          width={140}
          height={140}
        />
        <div>
          <h1>Nadia Karim</h1>
          <p>
            Full-stack JavaScript developer. I build fast, accessible web shops and dashboards with React on
            the front and Node.js on the back, and I care about clean code that a team can keep changing.
          </p>
          <p>
            Contact: <a href="mailto:nadia.karim@motoparts.test">nadia.karim@motoparts.test</a>
          </p>
        </div>
      </header>

      <section className="portfolio-section" aria-labelledby="skills-heading">
        <h2 id="skills-heading">Skills</h2>
        <ul className="skills">
          {SKILLS.map((skill) => (
            <li key={skill}>{skill}</li>
          ))}
        </ul>
      </section>

      <section className="portfolio-section" aria-labelledby="projects-heading">
        <h2 id="projects-heading">Projects</h2>
        <div className="projects">
          {PROJECTS.map((p) => (
            <article key={p.name} className="card project" data-testid="project">
              <h3>{p.name}</h3>
              <p>{p.summary}</p>
              <p className="stack">
                <strong>Built with:</strong> {p.stack}
              </p>
              {p.link && <Link to={p.link}>Visit {p.name}</Link>}
            </article>
          ))}
        </div>
      </section>
    </div>
  );
}
