/**
 * The single entry point from bytes to a validated Scene, shared by the page, `inspect`, the tests and
 * the benchmarks: loadModelAsync reads every format (load-model-async.ts), loadModel the .x and .m3d ones
 * synchronously (load-model-sync.ts). The format is recognised by content first, then by extension. Every failure
 * is a LoadError with a complete message. The scene's warnings leave here grouped, one line per kind
 * (group-warnings.ts), whatever the format.
 */

export { MAX_MODEL_BYTES, MODEL_EXTENSIONS } from './model-formats.ts';
export { loadModelAsync } from './load-model-async.ts';
export { loadModel } from './load-model-sync.ts';
