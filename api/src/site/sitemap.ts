import { escapeHtml } from '../lib/html';
import { ON_SALE, PartModel, partWrites } from '../parts/model';

/** The sitemap protocol's limit of addresses in one file (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** The shop's public pages besides the parts' own, in the sitemap before the parts. */
export const PUBLIC_PAGES = ['/', '/parts', '/reviews', '/blogs', '/myPortfolio', '/login', '/signup'];

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/**
 * The shop's sitemap: every public page and every part on sale (`/parts/:id`). Up to
 * SITEMAP_MAX_URLS addresses it is one file, `/sitemap.xml`; past them `/sitemap.xml` is a
 * sitemap index naming `/sitemaps/<n>.xml`, each with at most that many. The part ids are read once
 * and kept until the next write to the parts (any write: a new, renamed, archived or deleted part
 * changes the list), the files made from them likewise; so what it holds is bounded by the
 * catalogue, whatever is asked, and an address outside the files is a 404 that keeps nothing.
 */
export class Sitemap {
  private ids: Promise<string[]> | undefined;
  private readonly files = new Map<number, Buffer>();
  /** Bumped by every write: a read that began before one is not kept. */
  private generation = 0;

  constructor(
    private readonly shopUrl: string,
    private readonly perFile = SITEMAP_MAX_URLS,
  ) {
    partWrites.subscribe(() => {
      this.generation += 1;
      this.ids = undefined;
      this.files.clear();
    });
  }

  private async addresses(): Promise<string[]> {
    const paths = [...PUBLIC_PAGES, ...(await this.partIds()).map((id) => `/parts/${id}`)];
    return paths.map((p) => this.shopUrl + p);
  }

  private partIds(): Promise<string[]> {
    if (this.ids) return this.ids;
    const generation = this.generation;
    const read = PartModel.find(ON_SALE, { _id: 1 })
      .sort({ _id: 1 })
      .lean()
      .then((docs) => docs.map((d) => String(d._id)));
    if (generation === this.generation) this.ids = read;
    read.catch(() => {
      if (this.ids === read) this.ids = undefined;
    });
    return read;
  }

  /** `/sitemap.xml`: the one file, or the index of the files past SITEMAP_MAX_URLS. */
  async root(): Promise<Buffer> {
    return this.kept(0, async () => {
      const all = await this.addresses();
      if (all.length <= this.perFile) return urlset(all);
      const count = Math.ceil(all.length / this.perFile);
      const entries = Array.from(
        { length: count },
        (_, i) => `<sitemap><loc>${escapeHtml(`${this.shopUrl}/sitemaps/${i + 1}.xml`)}</loc></sitemap>`,
      );
      return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>\n`;
    });
  }

  /** `/sitemaps/<n>.xml` (from 1), or undefined when the sitemap has no such file. */
  async file(n: number): Promise<Buffer | undefined> {
    // 0 is the root's entry among the kept files.
    if (!Number.isInteger(n) || n < 1) return undefined;
    const hit = this.files.get(n);
    if (hit) return hit;
    const all = await this.addresses();
    if (all.length <= this.perFile || (n - 1) * this.perFile >= all.length) return undefined;
    return this.kept(n, async () => urlset(all.slice((n - 1) * this.perFile, n * this.perFile)));
  }

  private async kept(n: number, make: () => Promise<string>): Promise<Buffer> {
    const hit = this.files.get(n);
    if (hit) return hit;
    const generation = this.generation;
    const body = Buffer.from(await make());
    if (generation === this.generation) this.files.set(n, body);
    return body;
  }
}

function urlset(addresses: string[]): string {
  const urls = addresses.map((a) => `<url><loc>${escapeHtml(a)}</loc></url>`);
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

/** `/robots.txt`: everything may be crawled but the signed-in pages; the sitemap is named. */
export function robotsTxt(shopUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /purchase/',
    'Disallow: /cart',
    'Disallow: /dashboard',
    'Allow: /',
    '',
    `Sitemap: ${shopUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
