/** Debug views of CONTRACT section 2 that this build draws (no GL here: the URL layer imports it). */
export const VIEW_IDS = ['shaded', 'wireframe', 'skeleton'] as const;
export type ViewId = (typeof VIEW_IDS)[number];
