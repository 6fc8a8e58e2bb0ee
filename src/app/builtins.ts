/**
 * Models that ship with the page. URLs are relative to the page so the build works under any base
 * path. The generated ones are written by `npm run gen` (src/cli/gen-models.ts) before dev and build.
 */
export interface BuiltinModel {
  readonly id: string;
  readonly label: string;
  readonly url: string;
  /** Clip to start with when the URL names none. */
  readonly clip?: string;
}

export const BUILTIN_MODELS: readonly BuiltinModel[] = [
  { id: 'default', label: 'Walker (generated)', url: 'models/generated/walker.m3d', clip: 'walk' },
];

export function findBuiltin(id: string): BuiltinModel | undefined {
  return BUILTIN_MODELS.find((m) => m.id === id);
}
