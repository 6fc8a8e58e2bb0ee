/**
 * Expression presets of the Morph targets panel: named faces built from the Dawn-style targets (GPU Gems
 * ch. 4: a few emotions plus modifiers). `require`: targets the face cannot do without (the preset is
 * offered only when the model has all of them); `extra`: added when the model has them.
 */
export interface ExpressionPreset {
  readonly name: string;
  readonly require: Readonly<Record<string, number>>;
  readonly extra?: Readonly<Record<string, number>>;
}

export const EXPRESSION_PRESETS: readonly ExpressionPreset[] = [
  { name: 'joyful', require: { happy: 1 }, extra: { eyes_wide: 0.3, brow_up_left: 0.2, brow_up_right: 0.2 } },
  { name: 'furious', require: { angry: 1 }, extra: { jaw_open: 0.25, brow_down: 0.6 } },
  { name: 'sleepy', require: { blink: 0.75 }, extra: { sad: 0.25, jaw_open: 0.15 } },
  { name: 'mischievous', require: { smirk: 1, brow_up_left: 0.8 }, extra: { happy: 0.3 } },
  { name: 'astonished', require: { surprised: 1 }, extra: { jaw_open: 0.6, brow_up_left: 0.5, brow_up_right: 0.5 } },
  { name: 'pensive', require: { thoughtful: 1 }, extra: { brow_up_right: 0.35 } },
  { name: 'fairy', require: { happy: 0.8, ear_wiggle: 1 } },
];

/** The presets a model can show, each as its weights by name (required plus the extras the model has). */
export function availablePresets(targets: readonly string[]): { name: string; weights: Record<string, number> }[] {
  const have = new Set(targets);
  return EXPRESSION_PRESETS.filter((p) => Object.keys(p.require).every((n) => have.has(n))).map((p) => {
    const weights: Record<string, number> = { ...p.require };
    for (const [n, w] of Object.entries(p.extra ?? {})) if (have.has(n)) weights[n] = w;
    return { name: p.name, weights };
  });
}
