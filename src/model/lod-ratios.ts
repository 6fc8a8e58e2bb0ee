/**
 * Share of the model's triangles each generated detail level aims at, heaviest first (lod-simplify.ts makes the
 * levels; the page names them from this list without loading the simplifier).
 */
export const LOD_RATIOS = [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32] as const;
