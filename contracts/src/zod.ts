import { z } from 'zod';

// Every schema module of the contracts takes zod from here, so this runs before any schema is
// made: in browsers the schemas run without zod's JIT, whose feature probe (`new Function('')`,
// at an object schema's creation) the front ends' Content-Security-Policy refuses (no
// 'unsafe-eval') and reports as a violation.
if ('document' in globalThis) z.config({ jitless: true });

export { z };
