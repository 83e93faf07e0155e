import { expect, test } from '@playwright/test';
import type { Part } from '@motoparts/contracts';
import sharp from 'sharp';
import { api } from '../support/api';
import { API_URL } from '../support/env';
import { seriousViolations } from '../support/page-checks';
import { adminSession, deletePart } from './storefront-helpers';

/** A photo as a camera would give it: a 2000 × 1500 JPEG, made here. */
async function cameraPhoto(): Promise<Buffer> {
  const width = 2000;
  const height = 1500;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const x = (i / 3) % width;
    const y = Math.floor(i / 3 / width);
    pixels[i] = (x * 255) / width;
    pixels[i + 1] = (y * 255) / height;
    pixels[i + 2] = 90;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const HOSTED = /\/uploads\/[0-9a-f]{32}\.webp$/;

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('an admin uploads a product photo in Add Product and sees it on the storefront card', async ({
      page,
    }) => {
      const name = `E2E Photo Part ${width} ${Date.now()}`;
      await adminSession(page);
      await page.goto('/dashboard');
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Add Product' })
        .click();
      await expect(page.getByRole('heading', { name: 'Add Product', level: 1 })).toBeVisible();

      // A file that only claims to be a photo: the API reads its bytes and refuses it, and the
      // form says so in words.
      const fileInput = page.getByLabel('Upload a photo');
      await fileInput.setInputFiles({
        name: 'notes.png',
        mimeType: 'image/png',
        buffer: Buffer.from('not a photo'),
      });
      await expect(
        page.getByText('This file is not a JPEG, PNG or WebP photo. Choose another one.'),
      ).toBeVisible();
      await expect(page.getByLabel('Photo URL')).toHaveValue('');

      // The real photo: uploaded, the URL field filled with where the API hosts it, previewed.
      await fileInput.setInputFiles({
        name: 'exhaust.jpg',
        mimeType: 'image/jpeg',
        buffer: await cameraPhoto(),
      });
      await expect(page.getByText('Photo uploaded (1600 × 1200 px).')).toBeVisible();
      await expect(page.getByLabel('Photo URL')).toHaveValue(HOSTED);
      const hostedPath = await page.getByLabel('Photo URL').inputValue();
      const preview = page.getByRole('img', { name: 'Photo preview' });
      await expect(preview).toHaveAttribute('src', `${API_URL}${hostedPath.replace('.webp', '-400.webp')}`);
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/photo-upload-${width}.png`, fullPage: true });

      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Description').fill('Slip-on exhaust, photographed in the workshop.');
      await page.getByLabel('Price').fill('149.50');
      await page.getByLabel('Minimum order quantity').fill('1');
      await page.getByLabel('Available quantity').fill('12');
      await page.getByRole('button', { name: 'Add product' }).click();
      await expect(page.getByText('Product added successfully')).toBeVisible();

      const added = (await api<Part[]>('GET', '/parts?limit=100')).find((p) => p.name === name);
      expect(added?.img).toBe(hostedPath);
      try {
        // The storefront's card shows the hosted photo, loaded from the API. On a phone the
        // main menu opens from its button first.
        if (width < 720) await page.getByRole('button', { name: 'Menu', exact: true }).click();
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Home', exact: true })
          .click();
        const card = page
          .getByTestId('part-card')
          .filter({ has: page.getByRole('heading', { name, exact: true }) });
        await expect(card).toBeVisible();
        const photo = card.getByRole('img', { name });
        await photo.scrollIntoViewIfNeeded();
        await expect(photo).toHaveAttribute('src', `${API_URL}${hostedPath}`);
        await expect(photo).not.toHaveAttribute('data-fallback', 'true');
        await expect
          .poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth))
          .toBeGreaterThan(0);
        const shown = await photo.evaluate((img: HTMLImageElement) => img.currentSrc);
        expect(shown.startsWith(`${API_URL}/uploads/`)).toBe(true);
        await page.screenshot({ path: `/tmp/photo-card-${width}.png` });
      } finally {
        if (added) await deletePart(added._id);
      }
    });
  });
}
