/**
 * What the page accepts as a model file, apart from the loaders themselves (load-model.ts re-exports both): the
 * page's picker, its drop target and its readers need these, not the parsers, which run in the parse worker.
 */

/** Largest model file accepted (bytes). */
export const MAX_MODEL_BYTES = 256 * 1024 * 1024;

/** File extensions the page offers in its file picker. */
export const MODEL_EXTENSIONS = ['.x', '.m3d', '.gltf', '.glb'] as const;
