import { PAGES, pageTitle } from '../routes';

const byPath = (path: string) => PAGES.find((p) => p.path === path);

describe('route table (docs/product.md)', () => {
  it('serves the home page at /, /home and /purchase', () => {
    for (const path of ['/', '/home', '/purchase']) {
      expect(byPath(path)).toMatchObject({ remote: 'storefront', module: 'HomePage', title: 'Home' });
      expect(byPath(path)?.protected).toBeFalsy();
    }
  });

  it('makes /blogs the Q&A page and keeps the other public pages public', () => {
    expect(byPath('/blogs')).toMatchObject({ module: 'BlogsPage' });
    for (const path of ['/blogs', '/reviews', '/myPortfolio', '/login', '/signup']) {
      expect(byPath(path)?.protected).toBeFalsy();
    }
  });

  it('protects the purchase page and the dashboard', () => {
    expect(byPath('/purchase/:id')).toMatchObject({ module: 'PurchasePage', protected: true });
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
});
