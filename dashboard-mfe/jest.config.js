// Unit tests run on the TypeScript sources directly (SWC), with the workspaces mapped to their
// sources so `npm test -w dashboard-mfe` needs no prior build of contracts or state.
/** @type {import('jest').Config} */
module.exports = {
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
    '^@motoparts/contracts$': '<rootDir>/../contracts/src/index.ts',
    '^@motoparts/state$': '<rootDir>/../state/src/index.ts',
    '^@motoparts/state/standalone$': '<rootDir>/../state/src/standalone.tsx',
  },
};
