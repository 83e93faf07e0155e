import { expect, test, type Page } from '@playwright/test';
import type { Order, Part } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { DEMO } from '../support/env';
import { adminSession, createTestPart, deletePart, riderSession } from './storefront-helpers';

const getPart = (id: string) => api<Part>('GET', `/parts/${id}`);

test.describe('purchase page', () => {
  let part: Part;
  test.beforeEach(async () => {
    part = await createTestPart(103);
  });
  test.afterEach(async () => {
    await deletePart(part._id);
  });

  test('shows the part and a stepper bounded by the minimum and the stock, with the product’s refusal messages', async ({
    page,
  }) => {
    await riderSession(page);
    await page.goto(`/purchase/${part._id}`);
    await expect(page).toHaveTitle('Purchase - MotoParts');
    await expect(page.getByRole('heading', { level: 1, name: part.name })).toBeVisible();
    await expect(page.getByRole('img', { name: part.name })).toBeVisible();
    await expect(page.getByText(part.text)).toBeVisible();
    await expect(page.getByTestId('available-qty')).toHaveText('103 pcs');
    await expect(page.getByText('Ordering as Road Rider (rider@motoparts.test)')).toBeVisible();

    const qty = page.getByTestId('quantity');
    const message = page.getByTestId('stepper-message');
    await expect(qty).toHaveText('100');

    await page.getByRole('button', { name: 'Decrease' }).click();
    await expect(qty).toHaveText('100');
    await expect(message).toHaveText('Minimum purchase quantity is 100');

    const increase = page.getByRole('button', { name: 'Increase' });
    await increase.click();
    await expect(qty).toHaveText('101');
    await expect(message).toHaveText('');
    await increase.click();
    await increase.click();
    await expect(qty).toHaveText('103');
    await expect(page.getByTestId('order-total')).toHaveText('$257.50');
    await increase.click();
    await expect(qty).toHaveText('103');
    await expect(message).toHaveText('You have reach our available stocks');

    await page.getByRole('button', { name: 'Decrease' }).click();
    await expect(qty).toHaveText('102');
    await expect(page.getByRole('button', { name: 'Order now' })).toBeEnabled();

    // The stepper is local: the part's stock and minimum are untouched on the server.
    const after = await getPart(part._id);
    expect(after.availableQty).toBe(103);
    expect(after.qty).toBe(100);
  });

  test('Order now places the order, shows the Congratulations modal and the API has the order', async ({
    page,
  }) => {
    const token = await riderSession(page);
    await page.goto(`/purchase/${part._id}`);
    await page.getByRole('button', { name: 'Increase' }).click();
    await page.getByLabel('Address').fill('12 Workshop Lane, Springfield');
    await page.getByLabel('Phone').fill('+1 555 0100');

    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/order'));
    await page.getByRole('button', { name: 'Order now' }).click();
    const body = (await posted).postDataJSON() as Record<string, unknown>;
    // Address and phone are neither validated nor sent.
    expect(body).toEqual({ partsId: part._id, qty: 101, userName: 'Road Rider' });

    const dialog = page.getByRole('dialog', { name: 'Congratulations!' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Your order for ${part.name} was accepted`);
    await expect(page.getByTestId('available-qty')).toHaveText('2 pcs');

    const orders = await api<Order[]>('GET', `/order?user=${encodeURIComponent(DEMO.rider.email)}`, token);
    const mine = orders.find((o) => o.partsId === part._id);
    expect(mine).toMatchObject({
      Parts: part.name,
      qty: 101,
      price: 252.5,
      paid: false,
      user: DEMO.rider.email,
    });

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    // Stock (2) is now below the minimum: Order now is disabled.
    await expect(page.getByRole('button', { name: 'Order now' })).toBeDisabled();

    if (mine) await api('DELETE', `/order/${mine._id}`, token);
  });

  test('a 409 (stock gone meanwhile) shows a clear message and refreshes the stock shown', async ({
    page,
  }) => {
    await riderSession(page);
    await page.goto(`/purchase/${part._id}`);
    await expect(page.getByTestId('available-qty')).toHaveText('103 pcs');

    // Another customer buys 100 pieces while this page is open.
    const other = await emulatorSignUp();
    const otherToken = await apiToken(other.email, other.password);
    await api('POST', '/order', otherToken, { partsId: part._id, qty: 100, userName: 'Other Rider' });

    await page.getByRole('button', { name: 'Order now' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'the stock changed' })).toContainText(
      'Not enough stock: 3 pieces available.',
    );
    await expect(page.getByTestId('available-qty')).toHaveText('3 pcs');
    await expect(page.getByRole('button', { name: 'Order now' })).toBeDisabled();
    await expect(
      page.getByText('Only 3 pieces are left, fewer than the minimum order of 100.'),
    ).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('an unknown part id says so', async ({ page }) => {
    await riderSession(page);
    await page.goto('/purchase/0123456789abcdef01234567');
    await expect(page.getByRole('heading', { name: 'Part not found' })).toBeVisible();
  });
});

test('an admin pressing Purchase gets the alert and stays on the page', async ({ page }) => {
  await adminSession(page);
  await page.goto('/');
  const messages: string[] = [];
  page.on('dialog', (d) => {
    messages.push(d.message());
    void d.accept();
  });
  await page
    .getByTestId('part-card')
    .first()
    .getByRole('link', { name: /^Purchase / })
    .click();
  await expect.poll(() => messages).toEqual(['As an admin You can not order any product.']);
  await expect(page).toHaveURL(/\/$/);
});

test.describe('links the visitor is about to follow', () => {
  /** The first part on the home page that can be bought, its Purchase link and its id. */
  async function firstPurchaseLink(page: Page) {
    const link = page
      .getByTestId('part-card')
      .getByRole('link', { name: /^Purchase / })
      .first();
    await expect(link).toBeVisible();
    const id = (await link.getAttribute('href'))?.split('/').pop() ?? '';
    expect(id).toMatch(/^[a-f0-9]{24}$/);
    return { link, id, isPart: (url: string) => new URL(url).pathname === `/parts/${id}` };
  }

  test('resting the pointer on Purchase fetches the part and the page’s code before the click, and the page does not ask again', async ({
    page,
  }) => {
    await riderSession(page);
    await page.goto('/');
    const { link, id, isPart } = await firstPurchaseLink(page);
    // What the page fetched, as the page itself records it (resource timing: each request with the
    // moment it started), not from the test's stream of request events, which may reach the test
    // after a later step has already run.
    const fetched = () =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => ({ url: e.name, startTime: e.startTime })),
      );
    const isScript = (url: string) => new URL(url).pathname.endsWith('.js');
    const scriptsBefore = (await fetched()).filter((e) => isScript(e.url)).length;
    await link.hover();
    // The part and the purchase page's own code: everything the page needs is here before the
    // click, and nothing more is on its way (two looks in a row find the same requests).
    let seen = -1;
    await expect
      .poll(async () => {
        const all = await fetched();
        const settled = all.length === seen;
        seen = all.length;
        return (
          settled &&
          all.some((e) => isPart(e.url)) &&
          all.filter((e) => isScript(e.url)).length > scriptsBefore
        );
      })
      .toBe(true);
    const clickedAt = await page.evaluate(() => performance.now());
    await link.click();
    const { name } = await api<Part>('GET', `/parts/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Order now' })).toBeVisible();
    const afterClick = (await fetched()).filter((e) => e.startTime >= clickedAt).map((e) => e.url);
    expect(afterClick.filter(isPart)).toEqual([]);
    expect(afterClick.filter(isScript)).toEqual([]);
  });

  test('a pointer passing over a link without resting on it asks for nothing', async ({ page }) => {
    await riderSession(page);
    await page.goto('/');
    const { link, isPart } = await firstPurchaseLink(page);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (isPart(request.url())) asked.push(request.url());
    });
    // Onto the link and off it onto its card at once, as a sweep across the grid does (events
    // dispatched one after the other, so no timing is involved).
    await link.evaluate((el) => {
      const over = (target: Element | null) =>
        target?.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType: 'mouse' }));
      over(el);
      over(el.closest('article'));
    });
    await page.waitForTimeout(500);
    expect(asked).toEqual([]);
    // Resting on it (onto it, and no further) does ask.
    const partAsked = page.waitForRequest((request) => isPart(request.url()));
    await link.evaluate((el) =>
      el.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType: 'mouse' })),
    );
    await partAsked;
  });
});
