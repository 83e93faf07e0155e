const { createConfig } = require('../scripts/webpack/config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'storefront',
  port: 3001,
  title: 'MotoParts storefront (standalone)',
  exposes: {
    './HomePage': './src/features/home/pages/home-page.tsx',
    './ReviewsPage': './src/features/reviews/pages/reviews-page.tsx',
    './BlogsPage': './src/features/blogs/pages/blogs-page.tsx',
    './PortfolioPage': './src/features/portfolio/pages/portfolio-page.tsx',
    './PurchasePage': './src/features/purchase/pages/purchase-page.tsx',
    './CataloguePage': './src/features/catalogue/pages/catalogue-page.tsx',
    './PartPage': './src/features/part/pages/part-page.tsx',
    './CartPage': './src/features/cart/pages/cart-page.tsx',
  },
  // The first screens and their stylesheet, for the shell's index.html to paint before the pages'
  // code has run (src/app/prerender.tsx → prerender/home.html, prerender/purchase.html,
  // prerender/first-screen.css).
  prerender: { 'prerender/': 'src/app/prerender.tsx' },
});
