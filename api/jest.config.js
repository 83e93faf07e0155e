/** Integration tests over HTTP against real FerretDB, the Firebase Auth emulator, stripe-mock and Mailpit. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testMatch: ['<rootDir>/src/**/__tests__/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
    // request-filtering-agent ships only ES modules; Node requires them as they are, Jest's own
    // module loader needs them in CommonJS.
    '/node_modules/request-filtering-agent/.+\\.js$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!request-filtering-agent/)'],
  moduleNameMapper: { '^@motoparts/contracts$': '<rootDir>/../contracts/src/index.ts' },
  globalSetup: '<rootDir>/jest/global-setup.mjs',
  globalTeardown: '<rootDir>/jest/global-teardown.mjs',
  testTimeout: 60_000,
};
