import type { Part } from '@motoparts/contracts';
import { escapeHtml } from '../lib/html';

/** The shop's name as page titles and Open Graph carry it. */
export const SITE_NAME = 'MotoParts';
/** Search engines show about this much of a description. */
const DESCRIPTION_CHARS = 160;
/** What the shop's prices are in (the front ends show them in dollars). */
const CURRENCY = 'USD';

/** One line of text, cut at a word near `max` characters. */
function summary(text: string, max = DESCRIPTION_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  let end = space > max / 2 ? space : cut.length;
  while (end > 0 && ' ,.;:'.includes(cut.charAt(end - 1))) end -= 1;
  return `${cut.slice(0, end)}…`;
}

/**
 * JSON inside a `<script>` element: `<` is escaped, so no `</script>` or `<!--` in a part's text
 * can end the element early.
 */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** Where a part's page and photo are, as absolute addresses. */
export interface HeadUrls {
  /** The shop's public address, no trailing slash (SHOP_URL). */
  shop: string;
  /** The API's public address, no trailing slash: the photos it hosts are under it. */
  api: string;
}

/** A photo's absolute address: the API's hosted ones under the API, any other path under the shop. */
export function photoUrl(img: string, urls: HeadUrls): string {
  if (/^https?:\/\//i.test(img)) return img;
  if (img.startsWith('/uploads/')) return urls.api + img;
  return urls.shop + (img.startsWith('/') ? img : `/${img}`);
}

/**
 * The `<head>` elements of a part's public page (`/parts/:id`): its title, description, canonical
 * address, Open Graph tags and a schema.org Product, so that search engines and link previews
 * read the part before any script runs. The shop's servers put it into the page's head.
 */
export function partHead(part: Part, urls: HeadUrls): string {
  const url = `${urls.shop}/parts/${part._id}`;
  const image = photoUrl(part.img, urls);
  const description = summary(part.text);
  const inStock = part.availableQty >= part.qty;
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: part.name,
    image,
    description: part.text,
    sku: part._id,
    url,
    offers: {
      '@type': 'Offer',
      url,
      price: part.price.toFixed(2),
      priceCurrency: CURRENCY,
      availability: `https://schema.org/${inStock ? 'InStock' : 'OutOfStock'}`,
      eligibleQuantity: { '@type': 'QuantitativeValue', minValue: part.qty },
    },
  };
  return [
    `<title>${escapeHtml(`${part.name} - ${SITE_NAME}`)}</title>`,
    `<meta name="description" content="${escapeHtml(description)}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:type" content="product" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:title" content="${escapeHtml(part.name)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta property="og:image" content="${escapeHtml(image)}" />`,
    `<script type="application/ld+json">${scriptJson(product)}</script>`,
  ].join('\n    ');
}
