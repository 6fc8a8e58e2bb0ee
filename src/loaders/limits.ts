/**
 * Limits the loaders enforce beyond what each format's own fields bound, so a hostile file costs time and
 * memory in proportion to its size. Each is far above what real models use.
 */

/**
 * Most (mesh, morph target) slots a Scene may carry: every mesh that a target moves holds one MorphDeltas per
 * target of the file (SkinnedMesh.morphs), so meshes × targets grows quadratically with a file's size.
 * NVIDIA's Dawn, the largest real morph rig, uses 4 × 50.
 */
export const MAX_MORPH_SLOTS = 1 << 20;
