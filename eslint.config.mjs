import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

/** The parts of a remote (`<remote>-mfe/src`): its app, its features, and what its features share. */
const REMOTE_PARTS = ['app', 'feature', 'shared'];

/**
 * Who may import whom (docs/architecture.md). Files are sorted into elements by path; an import
 * is then allowed unless a policy below refuses it, the last matching policy deciding. Imports
 * inside one element (a feature's own files) are never checked.
 *
 * Resolution: the node resolver with the TypeScript extensions finds every relative import's
 * file, which is all the element patterns need. Workspace packages (`@motoparts/state`, a
 * remote's `@motoparts/<remote>/routes`) count as external modules and are matched by their
 * import specifier, so no TypeScript resolver is needed (none is installed).
 */
const boundaryRules = {
  files: ['{shell,storefront-mfe,auth-mfe,dashboard-mfe,state,contracts,api}/src/**/*.{ts,tsx}'],
  plugins: { boundaries },
  settings: {
    // Element patterns are relative to the repository, wherever ESLint is started from.
    'boundaries/root-path': fileURLToPath(new URL('.', import.meta.url)),
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] } },
    // Lazy pages are dynamic imports, and a re-export depends on its source as much as an import.
    'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
    'boundaries/legacy-templates': false,
    'boundaries/elements': [
      { type: 'app', pattern: '*-mfe/src/app', capture: ['remote'], partialMatch: false },
      {
        type: 'feature',
        pattern: '*-mfe/src/features/*',
        capture: ['remote', 'feature'],
        partialMatch: false,
      },
      { type: 'shared', pattern: '*-mfe/src/components', capture: ['remote'], partialMatch: false },
      { type: 'shared', pattern: '*-mfe/src/lib', capture: ['remote'], partialMatch: false },
      { type: 'shared', pattern: '*-mfe/src/styles', capture: ['remote'], partialMatch: false },
      // Anything else of a remote (its src/index.ts async boundary) belongs to its app.
      { type: 'app', pattern: '*-mfe/src', capture: ['remote'], partialMatch: false },
      { type: 'shell', pattern: 'shell/src', partialMatch: false },
      { type: 'kit', pattern: '{state,contracts}/src', partialMatch: false },
      { type: 'api', pattern: 'api/src', partialMatch: false },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        // Workspace packages are external modules; they are checked too.
        checkAllOrigins: true,
        policies: [
          {
            from: { element: { type: REMOTE_PARTS } },
            disallow: [
              {
                to: {
                  element: {
                    type: REMOTE_PARTS,
                    captured: { remote: '!{{ from.element.captured.remote }}' },
                  },
                },
              },
              { to: { element: { type: ['shell', 'kit', 'api'] } } },
              { to: { module: { source: '@motoparts/{*-mfe,shell,api}' } } },
            ],
            message:
              'A remote imports only its own files and the shared packages (@motoparts/state, @motoparts/contracts), not "{{ dependency.source }}".',
          },
          {
            from: { element: { type: 'feature' } },
            disallow: { to: { element: { type: ['feature', 'app'] } } },
            message:
              'The {{ from.element.captured.feature }} feature may import its own folder, components/, lib/, styles/ and packages, not "{{ dependency.source }}" (another feature or app/).',
          },
          {
            from: { element: { type: 'shared' } },
            disallow: { to: { element: { type: ['feature', 'app'] } } },
            message:
              'components/, lib/ and styles/ serve the features, so they may not import "{{ dependency.source }}" (a feature or app/).',
          },
          {
            from: { element: { type: 'shell' } },
            disallow: [
              { to: { element: { type: [...REMOTE_PARTS, 'kit', 'api'] } } },
              // exposed: the types of the remote's exposed modules (type-only imports, never bundled).
              { to: { module: { source: '@motoparts/*-mfe', internalPath: '!{routes,exposed}' } } },
              { to: { module: { source: '@motoparts/*-mfe', internalPath: null } } },
              { to: { module: { source: '@motoparts/api' } } },
            ],
            message:
              'The shell may take only a remote\'s route table (@motoparts/<remote>-mfe/routes), the types of its exposed modules (…/exposed) and the shared packages, not "{{ dependency.source }}".',
          },
          {
            from: { element: { type: ['kit', 'api'] } },
            disallow: [
              { to: { element: { type: [...REMOTE_PARTS, 'shell'] } } },
              { to: { module: { source: '@motoparts/{*-mfe,shell}' } } },
            ],
            message: 'state/, contracts/ and api/ may not import a front end ("{{ dependency.source }}").',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-dev/**',
      '**/node_modules/**',
      '.tools/**',
      '.data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['{shell,storefront-mfe,auth-mfe,dashboard-mfe,state}/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // RTK Query spells "no argument" as void (build.query<Result, void>).
      '@typescript-eslint/no-invalid-void-type': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  boundaryRules,
  {
    // A pattern that backtracks super-linearly lets one request-sized input hold the event loop:
    // every pattern in the repository must match in linear time.
    files: ['**/*.{ts,tsx,js,cjs,mjs}'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // Scripts served to the browser under test (e.g. the Stripe.js stand-in).
    files: ['e2e/tests/fixtures/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', HTMLElement: 'readonly' } },
  },
);
