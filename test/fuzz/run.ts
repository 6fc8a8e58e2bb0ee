import { installAllocationGuard } from './alloc-guard.ts';

// `npm run fuzz -- [options]`: see run-main.ts. The allocation guard goes in before the loaders load, so
// --replay and --minimize meter allocations exactly as the campaign's workers do.
installAllocationGuard();
const { main } = await import('./run-main.ts');
process.exitCode = await main(process.argv.slice(2));
