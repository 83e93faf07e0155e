const { createConfig } = require('../scripts/webpack-config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'storefront',
  port: 3001,
  title: 'MotoParts storefront (standalone)',
  exposes: {
    './HomePage': './src/pages/home-page.tsx',
    './ReviewsPage': './src/pages/reviews-page.tsx',
    './BlogsPage': './src/pages/blogs-page.tsx',
    './PortfolioPage': './src/pages/portfolio-page.tsx',
    './PurchasePage': './src/pages/purchase-page.tsx',
    './CataloguePage': './src/pages/catalogue-page.tsx',
  },
  // The hero and its stylesheet, for the shell's index.html to paint before any script runs
  // (src/prerender/home.tsx → prerender/home.html, prerender/hero.css).
  prerender: { 'prerender/': 'src/prerender/home.tsx' },
});
