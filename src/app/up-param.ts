/**
 * The values of the URL key `up` (docs/api.md#url-parameters; up-axis.ts does the turning). Apart so that the
 * page's first script (early-start.ts) reads the key without loading the posing code.
 */
export const UP_PARAMS = ['auto', 'y', 'z'] as const;
export type UpParam = (typeof UP_PARAMS)[number];

/** The `up` a query asks for: its value when valid, else the default 'auto' (state.ts reports a bad value). */
export function upFromSearch(params: URLSearchParams): UpParam {
  const value = params.get('up');
  return (UP_PARAMS as readonly (string | null)[]).includes(value) ? (value as UpParam) : 'auto';
}
