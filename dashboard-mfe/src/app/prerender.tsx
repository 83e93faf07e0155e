import { renderToStaticMarkup } from 'react-dom/server';
import firstScreenCss from '../styles/first-screen.css';
import { FIRST_SCREEN_STYLES_ID } from '../styles/first-screen';
import { ProfileIdentity } from '../features/users/components/profile-identity';
import { DASHBOARD_PAGES, MENU_TITLE } from './access';

/** Where the shell's server mounts this build's prerender/ folder (see the shell's FRAGMENT_URLS). */
const SHELL_MOUNT = '/_fragments/dashboard/prerender/';

/**
 * Build time (Node): the dashboard's first screen as an HTML fragment, emitted as
 * dist/prerender/dashboard.html with its stylesheet, for the shell's server to include in
 * index.html. It is the frame and the top of My Profile, the page /dashboard opens on for every
 * account: the menu's title and its one item for everyone, the heading (that page's largest
 * paint) and the name and email. `data-needs="session"` keeps it hidden until the shell's inline
 * script has filled each `data-fill` (`attribute:field`) from the stored session, on the path in
 * `data-path` only, and linked its stylesheet (`data-styles-href`, with the id `data-styles`)
 * and seen it loaded: no other page fetches it. The shell then shows it as the dashboard's
 * loading state until this remote's frame and page replace it with the same boxes. What the app
 * adds comes after these (the role's other menu items below My Profile, the profile form below
 * the card), so nothing moves.
 */
export default function prerender(): Record<'dashboard.html' | 'first-screen.css', string> {
  const everyone = DASHBOARD_PAGES.filter((page) => page.audience === 'everyone');
  const markup = renderToStaticMarkup(
    <div
      className="page dash-layout dash-stand-in"
      data-prerendered="dashboard/DashboardApp"
      data-needs="session"
      data-path="/dashboard"
      data-styles={FIRST_SCREEN_STYLES_ID}
      data-styles-href={`${SHELL_MOUNT}first-screen.css`}
    >
      <nav className="dash-menu" aria-label="Dashboard">
        <p className="dash-menu-title">{MENU_TITLE}</p>
        <ul>
          {everyone.map((page) => (
            <li key={page.path}>
              <a
                href={`/dashboard${page.path ? `/${page.path}` : ''}`}
                className={page.path ? undefined : 'active'}
                aria-current={page.path ? undefined : 'page'}
              >
                {page.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="dash-content">
        <section aria-labelledby="my-profile-title">
          <ProfileIdentity
            name={<span data-fill="text:displayName" />}
            email={<span data-fill="text:email" />}
          />
        </section>
      </div>
    </div>,
  );
  return {
    // Without a <link>: every page's HTML carries this fragment, and a stylesheet linked here would
    // be fetched on each of them (in force, it would also hold their first paint until loaded).
    'dashboard.html': markup,
    'first-screen.css': firstScreenCss,
  };
}
