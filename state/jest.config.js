// Unit tests run the TypeScript sources through SWC; workspace packages resolve to their src.
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
    '^@motoparts/contracts/messages$': '<rootDir>/../contracts/src/messages.ts',
    '^@motoparts/contracts$': '<rootDir>/../contracts/src/index.ts',
    '^@motoparts/state$': '<rootDir>/../state/src/index.ts',
  },
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
};
