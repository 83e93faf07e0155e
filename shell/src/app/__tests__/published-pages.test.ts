import type { RemoteName } from '../../remotes/registry';
import { publishedPages } from '../published-pages';
import { PAGES } from '../routes';

const paths = (pages: { path: string; remote: string }[], remote: RemoteName) =>
  pages.filter((p) => p.remote === remote).map((p) => p.path);

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test('a page a remote publishes after the shell was built is routed, with its title and guard', async () => {
  const pages = await publishedPages(async (remote) =>
    remote === 'dashboard'
      ? [
          { path: '/dashboard/*', title: 'Dashboard', module: 'DashboardApp', protected: true },
          { path: '/whats-new', title: "What's new", module: 'NewsPage', protected: true },
        ]
      : PAGES.filter((p) => p.remote === remote),
  );
  expect(pages.find((p) => p.path === '/whats-new')).toMatchObject({
    remote: 'dashboard',
    module: 'NewsPage',
    title: "What's new",
    protected: true,
  });
  expect(paths(pages, 'storefront')).toEqual(paths(PAGES, 'storefront'));
});

test('a remote whose table does not load keeps the table the shell was built with', async () => {
  const pages = await publishedPages(async (remote) => {
    if (remote === 'auth') throw new Error('auth is down');
    return [];
  });
  expect(paths(pages, 'auth')).toEqual(['/login', '/signup']);
  // An empty table is no table: the build's stays.
  expect(paths(pages, 'storefront')).toEqual(paths(PAGES, 'storefront'));
});

test('entries the shell cannot route are left out', async () => {
  const pages = await publishedPages(async (remote) =>
    remote === 'auth'
      ? [
          { path: '/login', title: 'Login', module: 'LoginPage' },
          { path: 'no-slash', title: 'Bad', module: 'X' },
          { path: '/untitled', module: 'X' },
          null,
        ]
      : [],
  );
  expect(paths(pages, 'auth')).toEqual(['/login']);
});
