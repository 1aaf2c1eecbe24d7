import { z } from 'zod';

// Zod's JIT probes `new Function` on first use; under our CSP (no 'unsafe-eval')
// the browser records that probe as a violation even though zod catches it.
// Import this module before parsing with a shared schema in the browser.
z.config({ jitless: true });
