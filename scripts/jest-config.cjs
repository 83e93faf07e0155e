// One jest setup for the front ends and the shared packages: TypeScript (and TSX) through SWC,
// with our workspace packages mapped to their sources so no build is needed before unit tests.
const path = require('node:path');

const src = (pkg, file) => path.join(__dirname, '..', pkg, 'src', file);

/** @returns {import('jest').Config} */
module.exports = function jestConfig(dir) {
  return {
    rootDir: dir,
    testEnvironment: 'node',
    roots: ['<rootDir>/src'],
    testMatch: ['**/__tests__/**/*.test.ts?(x)'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
            target: 'es2022',
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    moduleNameMapper: {
      '^@motoparts/contracts/messages$': src('contracts', 'messages.ts'),
      '^@motoparts/contracts/contact$': src('contracts', 'contact.ts'),
      '^@motoparts/contracts$': src('contracts', 'index.ts'),
      '^@motoparts/state/standalone$': src('state', 'standalone.tsx'),
      '^@motoparts/state/frame$': src('state', 'frame.ts'),
      '^@motoparts/state/cart$': src('state', 'cart-api.ts'),
      '^@motoparts/state$': src('state', 'index.ts'),
    },
    testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
  };
};
