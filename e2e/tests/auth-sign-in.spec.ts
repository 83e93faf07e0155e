import { expect, test, type Page } from '@playwright/test';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { loginThroughUi } from '../support/auth';
import { AUTH_EMULATOR_URL, DEMO, FIREBASE_PROJECT } from '../support/env';

const submit = (page: Page, name: 'Login' | 'Sign Up') =>
  page.locator('form').getByRole('button', { name, exact: true }).click();

const freshEmail = () => `e2e.${Date.now()}.${Math.floor(Math.random() * 1e6)}@motoparts.test`;

test.describe('login form', () => {
  test('shows the login fields, the Google option and a link to sign up', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('gives every validation message of docs/product.md', async ({ page }) => {
    await page.goto('/login');
    await submit(page, 'Login');
    await expect(page.getByText('email required', { exact: true })).toBeVisible();
    await expect(page.getByText('password required', { exact: true })).toBeVisible();

    await page.getByLabel('Email').fill('rider@motoparts');
    await page.getByLabel('Password').fill('12345');
    await submit(page, 'Login');
    await expect(page.getByText('Please enter a valid email', { exact: true })).toBeVisible();
    await expect(
      page.getByText('password must contain at last six characters', { exact: true }),
    ).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/login$/);
  });

  test("shows the provider's error in red under the form for a wrong password", async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.rider.email);
    await page.getByLabel('Password').fill('wrong-password-1');
    await submit(page, 'Login');
    const error = page.getByTestId('auth-error');
    await expect(error).toContainText(/Firebase: .*auth\/(invalid-credential|wrong-password)/);
    await expect(error).toHaveCSS('color', 'rgb(176, 0, 32)');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  });

  test('logs in, stores the API token as accessToken and goes home', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.rider.email);
    await page.getByLabel('Password').fill(DEMO.rider.password);
    await submit(page, 'Login');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
    const token = (await page.evaluate(() => localStorage.getItem('accessToken'))) ?? '';
    expect(token).toBeTruthy();
    // The stored token is ours, accepted by the API for the user's own data.
    const orders = await api<unknown[]>('GET', `/order?user=${encodeURIComponent(DEMO.rider.email)}`, token);
    expect(Array.isArray(orders)).toBe(true);
  });

  test('an admin login learns the admin flag', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.admin.email);
    await page.getByLabel('Password').fill(DEMO.admin.password);
    await submit(page, 'Login');
    await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
    const token = (await page.evaluate(() => localStorage.getItem('accessToken'))) ?? '';
    const admin = await api<{ admin: boolean }>(
      'GET',
      `/admin/${encodeURIComponent(DEMO.admin.email)}`,
      token,
    );
    expect(admin.admin).toBe(true);
  });
});

test.describe('sign up', () => {
  test('shows the fields, the Google option and a link to login', async ({ page }) => {
    await page.goto('/signup');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign Up' })).toBeVisible();
    for (const label of ['Name', 'Email', 'Password']) await expect(page.getByLabel(label)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await page.getByRole('link', { name: 'Login', exact: true }).last().click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('gives every validation message of docs/product.md', async ({ page }) => {
    await page.goto('/signup');
    await submit(page, 'Sign Up');
    await expect(page.getByText('name required', { exact: true })).toBeVisible();
    await expect(page.getByText('email required', { exact: true })).toBeVisible();
    await expect(page.getByText('password required', { exact: true })).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('abc');
    await submit(page, 'Sign Up');
    await expect(page.getByText('Please enter a valid email', { exact: true })).toBeVisible();
    await expect(
      page.getByText('password must contain at last six characters', { exact: true }),
    ).toBeVisible();
  });

  test('an address already in use gives the provider error', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Someone Else');
    await page.getByLabel('Email').fill(DEMO.rider.email);
    await page.getByLabel('Password').fill('another-pass-1');
    await submit(page, 'Sign Up');
    await expect(page.getByTestId('auth-error')).toContainText('auth/email-already-in-use');
  });

  test('sign up with a fresh email, sign out, then log in again', async ({ page }) => {
    const email = freshEmail();
    const password = 'fresh-pass-2026';
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Fresh Rider');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await submit(page, 'Sign Up');
    await expect(page).toHaveURL(/\/$/);

    // The display name was set at sign-up and shows in the avatar menu.
    const avatar = page.getByRole('button', { name: 'Account menu for Fresh Rider' });
    await avatar.click();
    await expect(page.getByRole('menu').getByText('Fresh Rider', { exact: true })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await submit(page, 'Login');
    await expect(page.getByRole('button', { name: 'Account menu for Fresh Rider' })).toBeVisible();

    // The emulator holds the account with its display name.
    const res = await fetch(
      `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/projects/${FIREBASE_PROJECT}/accounts:lookup`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ email: [email] }),
      },
    );
    const found = (await res.json()) as { users?: { displayName?: string }[] };
    expect(found.users?.[0]?.displayName).toBe('Fresh Rider');
  });
});

test.describe('the sign-in pages’ code', () => {
  for (const [path, heading] of [
    ['/login', 'Login'],
    ['/signup', 'Sign Up'],
  ] as const) {
    test(`${path} loads Firebase and zod only once the visitor starts on the form`, async ({ page }) => {
      const bodies: string[] = [];
      page.on('response', async (res) => {
        if (res.request().resourceType() === 'script') bodies.push(await res.text().catch(() => ''));
      });
      const loaded = (marker: string) => bodies.some((b) => b.includes(marker));
      await page.goto(path);
      await expect(page.locator('[data-prerendered]')).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(bodies.length).toBeGreaterThan(0);
      expect(loaded('FirebaseError'), 'Firebase before the form is touched').toBe(false);
      expect(loaded('ZodError'), 'zod before the form is touched').toBe(false);

      await page.getByLabel('Email').focus();
      await expect.poll(() => loaded('FirebaseError') && loaded('ZodError')).toBe(true);
    });
  }
});

test.describe('forgot password', () => {
  /** The reset link of the newest password mail the emulator holds for this address. */
  async function resetLinkFor(email: string): Promise<URL> {
    const res = await fetch(`${AUTH_EMULATOR_URL}/emulator/v1/projects/${FIREBASE_PROJECT}/oobCodes`);
    const { oobCodes } = (await res.json()) as {
      oobCodes: { email: string; requestType: string; oobLink: string }[];
    };
    const mails = oobCodes.filter((c) => c.email === email && c.requestType === 'PASSWORD_RESET');
    expect(mails).toHaveLength(1);
    return new URL(mails[0]?.oobLink ?? '');
  }

  for (const width of [1280, 375]) {
    test(`at ${width} px: mails a reset link for the email typed; the link leads back to /login, where the new password signs in`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      // A throwaway account: the demo accounts keep their passwords.
      const account = await emulatorSignUp(undefined, 'old-pass-2026', 'Reset Rider');
      await page.goto('/login');
      const email = page.getByLabel('Email');
      const forgot = page.getByRole('button', { name: 'Forgot password?' });

      // The email typed, checked by the sign-in rule; a wrong one gets its message and the focus.
      await forgot.click();
      await expect(page.getByText('email required', { exact: true })).toBeVisible();
      await expect(email).toBeFocused();
      await email.fill('rider@motoparts');
      await forgot.click();
      await expect(page.getByText('Please enter a valid email', { exact: true })).toBeVisible();
      // An address Firebase does not know: the provider's message, where a sign-in's shows.
      await email.fill(`nobody.${Date.now()}@motoparts.test`);
      await forgot.click();
      const error = page.getByTestId('auth-error');
      await expect(error).toContainText('Firebase: Error (auth/user-not-found).');
      await expect(error).toHaveCSS('color', 'rgb(176, 0, 32)');

      await email.fill(account.email);
      await forgot.click();
      await expect(page.getByTestId('auth-notice')).toHaveText(
        'Password reset email sent. Follow its link to choose a new password, then log in.',
      );
      await expect(error).toHaveCount(0);
      await expect(page).toHaveURL(/\/login$/);

      // The mail's link: the emulator's stand-in for Firebase's reset page takes the new
      // password as a parameter, then continues to the link the shop gave.
      const link = await resetLinkFor(account.email);
      expect(new URL(link.searchParams.get('continueUrl') ?? '').pathname).toBe('/login');
      link.searchParams.set('newPassword', 'new-pass-2026');
      await page.goto(link.href);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();

      await email.fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await submit(page, 'Login');
      await expect(error).toContainText(/Firebase: .*auth\/(invalid-credential|wrong-password)/);
      await page.getByLabel('Password').fill('new-pass-2026');
      await submit(page, 'Login');
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('button', { name: 'Account menu for Reset Rider' })).toBeVisible();
    });
  }
});

test.describe('Google sign-in (emulator mode)', () => {
  test('the login page button signs in the demo Google account', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Account menu for Google Rider' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
  });

  test('the sign-up page button signs in too and returns to the protected origin', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('inline login card on the home page', () => {
  test('loads only when scrolled near, then signs in with Google', async ({ page }) => {
    // The auth remote's origin comes from the runtime config, so this works on any ports.
    const config = (await (await page.request.get('/config.json')).json()) as { remotes: { auth: string } };
    const authOrigin = new URL(config.remotes.auth).origin;
    const authRequests: string[] = [];
    page.on('request', (r) => {
      if (/identitytoolkit|securetoken/.test(r.url()) || r.url().startsWith(authOrigin)) {
        authRequests.push(r.url());
      }
    });
    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await page.waitForTimeout(500);
    expect(authRequests, 'the auth remote is not part of the first load').toEqual([]);

    const slot = page.getByTestId('login-slot');
    await slot.scrollIntoViewIfNeeded();
    await expect(slot.getByRole('heading', { name: 'Login' })).toBeVisible();
    await expect(slot.getByLabel('Email')).toBeVisible();
    expect(authRequests.length).toBeGreaterThan(0);

    await slot.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('button', { name: 'Account menu for Google Rider' })).toBeVisible();
  });

  test('validates and logs in with email and password', async ({ page }) => {
    await page.goto('/');
    const slot = page.getByTestId('login-slot');
    await slot.scrollIntoViewIfNeeded();
    await slot.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(slot.getByText('email required', { exact: true })).toBeVisible();
    await slot.getByLabel('Email').fill(DEMO.rider.email);
    await slot.getByLabel('Password').fill(DEMO.rider.password);
    await slot.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Account menu for Road Rider' })).toBeVisible();
  });
});

test.describe('session renewal', () => {
  test('an expired API token is renewed through Firebase on load (Loading... meanwhile), without a new login', async ({
    page,
  }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.rider.email);
    await page.getByLabel('Password').fill(DEMO.rider.password);
    await submit(page, 'Login');
    await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();

    // Replace our token with one that expired an hour ago (the user stays remembered).
    const expired = await page.evaluate((email) => {
      const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/={1,2}$/, '');
      const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ email, exp: Math.floor(Date.now() / 1000) - 3600 })}.x`;
      localStorage.setItem('accessToken', token);
      return token;
    }, DEMO.rider.email);

    // Slow the token exchange down so the guard's waiting state can be seen.
    await page.route(/\/user\/[^/]+$/, async (route) => {
      if (route.request().method() === 'PUT') await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto('/dashboard');
    await expect(page.getByText('Loading...', { exact: true }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('button', { name: 'Account menu for Road Rider' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).not.toBe(expired);
  });

  test('a sign-out on another device ends this one too: its Firebase sign-in buys no new API token', async ({
    page,
  }) => {
    const rider = await emulatorSignUp(undefined, undefined, 'Elsewhere Rider');
    await loginThroughUi(page, rider.email, rider.password);
    // The top bar's cart count is fetched once the page is idle: wait for it, so that the call
    // the sign-out below refuses first is the dashboard's (a refused cart count would end the
    // session too, and then the bar offers Login instead of Dashboard).
    await expect(page.getByRole('link', { name: 'Cart 0 lines' })).toBeVisible();
    // The same person signs in on another device and signs out there.
    await api('DELETE', '/session', await apiToken(rider.email, rider.password));

    // This browser's next call is refused, and so is its renewal: Firebase's session here still
    // holds the ID token of its sign-in, issued before the sign-out. The visitor ends on /login,
    // signed out.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard', exact: true })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

    // Signing in again works, and returns to the dashboard.
    await page.getByLabel('Email').fill(rider.email);
    await page.getByLabel('Password').fill(rider.password);
    await submit(page, 'Login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
    const token = (await page.evaluate(() => localStorage.getItem('accessToken'))) ?? '';
    const profile = await api<{ email: string }>('GET', `/user/${encodeURIComponent(rider.email)}`, token);
    expect(profile.email).toBe(rider.email);
  });

  test('an expired token with no Firebase user signs out and guards still redirect', async ({ page }) => {
    await page.addInitScript(() => {
      const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/={1,2}$/, '');
      const email = 'gone@motoparts.test';
      localStorage.setItem('accessToken', `${b64({ alg: 'HS256' })}.${b64({ email, exp: 1 })}.x`);
      localStorage.setItem(
        'motoparts.sessionUser',
        JSON.stringify({ email, displayName: 'Gone', photoURL: null }),
      );
    });
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  });
});
