import { installAllocationGuard } from './alloc-guard.ts';

// The guard must replace the typed-array constructors before fflate and the loaders are loaded.
installAllocationGuard();
await import('./worker-loop.ts');
