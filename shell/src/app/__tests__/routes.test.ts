// Node's fs and path: the test reads each remote's webpack.config.js as text.
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTES, type RemoteName } from '../../remotes/registry';
import { PAGES, pageTitle } from '../routes';

const byPath = (path: string) => PAGES.find((p) => p.path === path);

/** The workspace folder of each remote. */
const WORKSPACES: Record<RemoteName, string> = {
  storefront: 'storefront-mfe',
  auth: 'auth-mfe',
  dashboard: 'dashboard-mfe',
};

/**
 * The module names a remote exposes: the keys of `exposes` in its webpack.config.js, without
 * `./`. Read as text so the test does not load webpack and its plugins.
 */
function exposedModules(remote: RemoteName): string[] {
  const config = readFileSync(
    join(__dirname, '..', '..', '..', '..', WORKSPACES[remote], 'webpack.config.js'),
    'utf8',
  );
  const exposes = /exposes:\s*\{([^}]*)\}/.exec(config)?.[1] ?? '';
  return [...exposes.matchAll(/['"]\.\/([\w-]+)['"]\s*:/g)].map((m) => m[1] ?? '');
}

describe('route table (docs/product.md)', () => {
  it('serves the home page at /, /home and /purchase', () => {
    for (const path of ['/', '/home', '/purchase']) {
      expect(byPath(path)).toMatchObject({ remote: 'storefront', module: 'HomePage', title: 'Home' });
      expect(byPath(path)?.protected).toBeFalsy();
    }
  });

  it('makes /blogs the Q&A page and keeps the other public pages public', () => {
    expect(byPath('/blogs')).toMatchObject({ module: 'BlogsPage' });
    for (const path of ['/blogs', '/reviews', '/myPortfolio', '/login', '/signup', '/parts/:id']) {
      expect(byPath(path)?.protected).toBeFalsy();
    }
  });

  it('protects the purchase page, the cart and the dashboard', () => {
    expect(byPath('/purchase/:id')).toMatchObject({ module: 'PurchasePage', protected: true });
    expect(byPath('/cart')).toMatchObject({ remote: 'storefront', module: 'CartPage', protected: true });
    expect(byPath('/dashboard/*')).toMatchObject({ remote: 'dashboard', protected: true });
  });

  it('loads sign-in pages from the auth remote', () => {
    expect(byPath('/login')).toMatchObject({ remote: 'auth', module: 'LoginPage' });
    expect(byPath('/signup')).toMatchObject({ remote: 'auth', module: 'SignupPage' });
  });

  it('titles every page with the site name', () => {
    expect(pageTitle('Reviews')).toBe('Reviews - MotoParts');
    expect(new Set(PAGES.map((p) => p.path)).size).toBe(PAGES.length);
  });

  it("takes every remote's pages from that remote's own table", () => {
    expect(new Set(PAGES.map((p) => p.remote))).toEqual(new Set(Object.keys(REMOTES)));
    expect(PAGES.map((p) => p.module).sort()).toEqual(
      [
        'BlogsPage',
        'CartPage',
        'CataloguePage',
        'DashboardApp',
        'HomePage',
        'HomePage',
        'HomePage',
        'LoginPage',
        'PartPage',
        'PortfolioPage',
        'PurchasePage',
        'ReviewsPage',
        'SignupPage',
      ].sort(),
    );
  });

  it.each(Object.keys(REMOTES) as RemoteName[])(
    "renders %s's pages with modules that remote exposes",
    (remote) => {
      const exposed = exposedModules(remote);
      expect(exposed.length).toBeGreaterThan(0);
      for (const page of PAGES.filter((p) => p.remote === remote)) {
        expect(exposed).toContain(page.module);
      }
    },
  );

  it('finds the session module the shell loads for sign-out and renewal in the auth remote', () => {
    expect(exposedModules('auth')).toContain('session');
  });
});
