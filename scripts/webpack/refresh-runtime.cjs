// @ts-check
// The page's one React Refresh runtime, for development builds only (dev.cjs aliases
// `react-refresh/runtime` here). Fast Refresh works through the runtime that hooked React DOM
// before React DOM started: the shell's development build loads this first, and a remote served
// by the dev server, whose edited components register here, must reach that same instance. Module
// Federation's share scope cannot hand it over: the refresh plugin's entry runs synchronously
// when remoteEntry.js loads, before any shared module can be negotiated. So the first build on
// the page to load this keeps the runtime on the global object, and the others take it from there.
const KEY = Symbol.for('motoparts.react-refresh-runtime');

/** @typedef {{ injectIntoGlobalHook: (page: object) => void } & Record<string, unknown>} RefreshRuntime */
const page = /** @type {Record<symbol, RefreshRuntime | undefined>} */ (/** @type {unknown} */ (globalThis));

let shared = page[KEY];
if (!shared) {
  // The package's root: the same module as `react-refresh/runtime`, by a name the alias leaves.
  /** @type {RefreshRuntime} */
  // @ts-expect-error: react-refresh ships no type declarations (RefreshRuntime says what is used)
  const runtime = require('react-refresh');
  runtime.injectIntoGlobalHook(globalThis);
  // Hooked once: the refresh plugin's entry in each remote asks again, and a second hook would
  // count every root twice.
  shared = page[KEY] = Object.freeze({ ...runtime, injectIntoGlobalHook: () => {} });
}

module.exports = shared;
