import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { TestimonialsSlot } from '../components/testimonials';
import { BlogsView } from '../features/blogs/components/blogs-view';
import { MAX_QUERY } from '../features/catalogue/catalogue-state';
import { CatalogueControls, CatalogueHead } from '../features/catalogue/components/catalogue-controls';
import { SearchCombobox } from '../features/catalogue/components/search-suggestions';
import { HomeHero } from '../features/home/components/home-hero';
import { PortfolioView } from '../features/portfolio/components/portfolio-view';
import { ReviewsHead } from '../features/reviews/components/reviews-head';
import firstScreenCss from '../styles/first-screen.css';
import { FIRST_SCREEN_STYLES_ID } from '../styles/first-screen';

/**
 * Where the shell's server mounts this build's prerender/ folder (its server-side includes and
 * the stylesheet below are fetched from there; see the shell's FRAGMENT_URLS).
 */
const SHELL_MOUNT = '/_fragments/storefront/prerender/';

/** The part's photo as the pages' PartImage shows it; its src and alt are filled from the part. */
const PartPhotoSlot = () => (
  <img data-fill="src:img alt:name" alt="" width={560} height={373} loading="eager" decoding="async" />
);

/**
 * Build time (Node): the storefront's first screens as HTML fragments, emitted into
 * dist/prerender/. The shell's server includes them in index.html, so they paint before any of
 * the site's JavaScript has run, and the shell shows the one the page opened with as that route's
 * loading state until this remote's page replaces it with the same boxes. `data-prerendered`
 * names the exposed module a fragment stands in for.
 *
 * - home.html: the home page's hero (its largest paint), shown on the home routes. It links the
 *   first screens' stylesheet, not inline rules: the shell's Content-Security-Policy allows
 *   inline styles only by a hash fixed at the shell's build, and this fragment changes with ours.
 * - purchase.html: the top of the purchase page's part column, empty: photo, category and name
 *   (the name is that page's largest paint: Chromium does not count a photo with as few bytes per
 *   pixel as our drawings). `data-needs="part"` keeps it hidden until the shell's inline script
 *   has fetched the route's part and filled each `data-fill` (`attribute:field` pairs, `text` for
 *   the text). What the page adds comes after these (the stock badge to the right of the
 *   category, text, price and facts below the name, the form beside), so nothing the fragment
 *   painted moves. The shell includes it after home.html, whose link to
 *   the stylesheet it shares (one request, one element with that id). It also holds the part
 *   page's equivalent, filled the same way by the same script (for any visitor: that page is
 *   public): photo in the first column; category, name and text in the second. The page adds the
 *   stock badge to the right of the category and the price, facts and buttons below the text.
 * - pages.html: the pages that need no data, whole (the Q&A page, the portfolio), the reviews
 *   page (heading and intro, and the reviews' list that the shell's inline script fills from
 *   GET /review as it fills a part: TestimonialsSlot), the top of the catalogue
 *   (heading, search box and filters at their defaults, without counts): the shell shows the
 *   one its route names, so their largest paint is in the HTML too, and keeps it as the page's
 *   loading state until the page renders the same markup. Also after home.html.
 */
export default function prerender(): Record<
  'home.html' | 'purchase.html' | 'pages.html' | 'first-screen.css',
  string
> {
  const home = renderToStaticMarkup(
    <MemoryRouter>
      <div className="home" data-prerendered="storefront/HomePage">
        <HomeHero />
      </div>
    </MemoryRouter>,
  );
  const purchase = renderToStaticMarkup(
    <div className="page" data-prerendered="storefront/PurchasePage" data-needs="part">
      <div className="purchase">
        <section className="purchase-product">
          <PartPhotoSlot />
          {/* The badge is upper case: the category reads as its label (CATEGORY_LABELS). */}
          <p className="part-tags">
            <span className="part-category" data-fill="text:category" />
          </p>
          <h1 data-fill="text:name" />
        </section>
      </div>
    </div>,
  );
  const partPage = renderToStaticMarkup(
    <div className="page" data-prerendered="storefront/PartPage" data-needs="part">
      <article className="purchase part-page">
        <div className="purchase-product">
          <PartPhotoSlot />
        </div>
        <div className="purchase-product">
          <p className="part-tags">
            <span className="part-category" data-fill="text:category" />
          </p>
          <h1 data-fill="text:name" />
          <p data-fill="text:text" />
        </div>
      </article>
    </div>,
  );
  const pages = renderToStaticMarkup(
    <MemoryRouter>
      <BlogsView prerendered="storefront/BlogsPage" />
      <PortfolioView prerendered="storefront/PortfolioPage" />
      <div className="page" data-prerendered="storefront/ReviewsPage">
        <ReviewsHead />
        <TestimonialsSlot />
      </div>
      <div className="section catalogue" data-prerendered="storefront/CataloguePage">
        <CatalogueHead />
        <CatalogueControls
          ids="catalogue"
          search={
            <SearchCombobox
              inputId="catalogue-q"
              listId="catalogue-suggestions"
              value=""
              maxLength={MAX_QUERY}
            />
          }
          category={undefined}
          sort={undefined}
          price={undefined}
          inStock={false}
          facets={undefined}
          inert
        />
      </div>
    </MemoryRouter>,
  );
  return {
    'home.html': `<link rel="stylesheet" id="${FIRST_SCREEN_STYLES_ID}" href="${SHELL_MOUNT}first-screen.css">${home}`,
    'purchase.html': purchase + partPage,
    'pages.html': pages,
    'first-screen.css': firstScreenCss,
  };
}
