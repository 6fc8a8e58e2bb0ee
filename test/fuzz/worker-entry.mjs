// Worker-thread bootstrap: registers tsx so the TypeScript fuzz worker and the loaders it imports can run
// in a plain Node worker (the same under vitest and under the tsx CLI).
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
