import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { Part, Review } from '@motoparts/contracts';
import { API_URL } from '../support/env';
import { createTestPart, deletePart, hasHorizontalScroll, riderSession } from './storefront-helpers';

test.describe('home page', () => {
  test('hero with Get Started to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Motorcycle parts in bulk, straight from stock',
    );
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('each part card shows name, photo, category, stock badge, price, minimum, stock and Purchase', async ({
    page,
  }) => {
    const parts = (await (await fetch(`${API_URL}/parts`)).json()) as Part[];
    await page.goto('/');
    const cards = page.getByTestId('part-card');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBe(parts.length);
    for (const part of parts.slice(0, 3)) {
      const card = cards.filter({ has: page.getByRole('heading', { name: part.name, exact: true }) });
      await expect(card.getByRole('img', { name: part.name })).toBeVisible();
      // The description is the product page's; the card names the category and the stock state.
      await expect(card).not.toContainText(part.text);
      await expect(card.locator('.part-category')).toHaveText(
        { parts: 'Parts', tools: 'Tools', gear: 'Gear' }[part.category],
      );
      await expect(card.getByText(/^(In stock|Low stock|Sold out)$/)).toBeVisible();
      await expect(card).toContainText(`$${part.price.toFixed(2)}`);
      await expect(card).toContainText(`Minimum order${part.qty} pcs`);
      await expect(card).toContainText(`Available${part.availableQty.toLocaleString('en-US')} pcs`);
      await expect(card.getByRole('link', { name: `Purchase ${part.name}` })).toHaveAttribute(
        'href',
        `/purchase/${part._id}`,
      );
    }
  });

  test('a signed-in customer goes from Purchase to the purchase page', async ({ page }) => {
    const part = await createTestPart(400);
    try {
      await riderSession(page);
      await page.goto('/');
      await page.getByRole('link', { name: `Purchase ${part.name}` }).click();
      await expect(page).toHaveURL(new RegExp(`/purchase/${part._id}$`));
      await expect(page.getByTestId('quantity')).toHaveText('100');
    } finally {
      await deletePart(part._id);
    }
  });

  test('testimonials come from GET /review with star ratings readable as text', async ({ page }) => {
    const reviews = (await (await fetch(`${API_URL}/review`)).json()) as Review[];
    expect(reviews.length).toBeGreaterThanOrEqual(3);
    await page.goto('/');
    const first = reviews[0];
    if (!first) throw new Error('the seed has reviews');
    const card = page.getByTestId('testimonial').filter({ hasText: first.review });
    await expect(card).toBeVisible();
    await expect(card.getByRole('img', { name: `Rated ${first.rating} out of 5` })).toBeVisible();
    await expect(card).toContainText(first.name);
    await expect(card).not.toContainText('@');
  });

  test('business summary shows the static figures', async ({ page }) => {
    await page.goto('/');
    const summary = page.getByRole('region', { name: 'Trusted by workshops and riders' });
    for (const [figure, label] of [
      ['100+', 'Customers'],
      ['125M+', 'Annual revenue'],
      ['50+', 'Tools'],
      ['35k+', 'Reviews'],
    ] as const) {
      await expect(summary.getByRole('listitem').filter({ hasText: label })).toContainText(figure);
    }
  });

  test('the contact block has email, subject, message and a Submit that does not reload', async ({
    page,
  }) => {
    await page.goto('/');
    const contact = page.getByRole('region', { name: 'Contact us' });
    await contact.getByLabel('Email').fill('workshop@example.com');
    await contact.getByLabel('Subject').fill('Bulk order of chains');
    await contact.getByLabel('Message').fill('Do you ship 500 chains to Lisbon?');
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await contact.getByRole('button', { name: 'Submit' }).click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    await expect(page).toHaveURL(/\/$/);
  });

  test('the first load carries no Firebase, zod or react-hook-form', async ({ page }) => {
    const bodies: string[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script') bodies.push(await res.text().catch(() => ''));
    });
    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(bodies.length).toBeGreaterThan(0);
    for (const marker of ['FirebaseError', 'ZodError', 'shouldUnregister']) {
      expect(
        bodies.filter((b) => b.includes(marker)),
        marker,
      ).toEqual([]);
    }
  });
});

test.describe('static pages', () => {
  test('/reviews lists every testimonial', async ({ page }) => {
    const reviews = (await (await fetch(`${API_URL}/review`)).json()) as Review[];
    await page.goto('/reviews');
    await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
    await expect(page.getByTestId('testimonial')).toHaveCount(reviews.length);
  });

  test('/blogs is the Q&A page of five cards', async ({ page }) => {
    await page.goto('/blogs');
    const cards = page.getByTestId('qa-card');
    await expect(cards).toHaveCount(5);
    for (const [heading, answer] of [
      ['How can you improve the performance of a React application?', 'React.lazy'],
      ['What are the different ways to manage state in a React application?', 'URL state'],
      ['How does prototypal inheritance work?', 'Object.create(proto)'],
      ['Why do we set state through the setter and not directly?', 're-render'],
      ['What is a unit test and why should we write unit tests?', 'in isolation'],
    ] as const) {
      const card = cards.filter({ has: page.getByRole('heading', { level: 2, name: heading }) });
      await expect(card).toContainText(answer);
    }
  });

  test('/myPortfolio shows skills and three projects', async ({ page }) => {
    await page.goto('/myPortfolio');
    await expect(page.getByRole('heading', { name: 'Skills' })).toBeVisible();
    expect(await page.getByRole('region', { name: 'Skills' }).getByRole('listitem').count()).toBeGreaterThan(
      5,
    );
    await expect(page.getByTestId('project')).toHaveCount(3);
  });
});

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('accessibility and small screens', () => {
  let part: Part;
  test.beforeAll(async () => {
    part = await createTestPart(1000, `E2E Accessibility Part ${Date.now()}`);
  });
  test.afterAll(async () => {
    await deletePart(part._id);
  });

  test('home, login and signup have no serious or critical axe violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await page.getByTestId('login-slot').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('login-slot').getByLabel('Email')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/login');
    await page.locator('form').getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText('email required')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/signup');
    await expect(page.getByLabel('Name')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the purchase page (with a stepper message shown) has no serious or critical axe violations', async ({
    page,
  }) => {
    await riderSession(page);
    await page.goto(`/purchase/${part._id}`);
    await page.getByRole('button', { name: 'Decrease' }).click();
    await expect(page.getByTestId('stepper-message')).toHaveText('Minimum purchase quantity is 100');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/motoparts-purchase.png', fullPage: true });
  });

  test('every public page and the purchase page fit 375 px without horizontal scroll', async ({ page }) => {
    await riderSession(page);
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of [
      '/',
      '/reviews',
      '/blogs',
      '/myPortfolio',
      `/purchase/${part._id}`,
      '/no/such/page',
    ]) {
      await page.goto(path);
      await expect(page.locator('main h1, main img').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await hasHorizontalScroll(page), path).toBe(false);
    }
    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await page.screenshot({ path: '/tmp/motoparts-home-375.png', fullPage: true });
  });

  test('login and signup fit 375 px and the menu opens on small screens', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of ['/login', '/signup']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await hasHorizontalScroll(page), path).toBe(false);
    }
    await page.getByRole('button', { name: 'Menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Reviews', exact: true })
      .click();
    await expect(page).toHaveURL(/\/reviews$/);
  });

  test('home screenshot for review', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await page.getByTestId('login-slot').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('login-slot').getByLabel('Email')).toBeVisible();
    await page.screenshot({ path: '/tmp/motoparts-home.png', fullPage: true });
  });
});
