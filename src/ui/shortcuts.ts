/**
 * The keyboard shortcuts, in one table: the key handler (input.ts) finds a pressed key's action here and
 * the help overlay (overlay.ts) lists the table row by row, so the two cannot drift apart. A key that is
 * not in the table does nothing. Also the pointer and touch gestures the help lists (touch.ts handles
 * them; bone-hover.ts and timeline-seek.ts the last two). Data only; no DOM.
 */

/** What a shortcut does; input.ts handles every one (its switch is exhaustive). */
export type ShortcutAction =
  | 'play'
  | 'step'
  | 'clip'
  | 'skeleton'
  | 'wireframe'
  | 'technique'
  | 'compare'
  | 'view'
  | 'bindPose'
  | 'grid'
  | 'shadows'
  | 'lookAt'
  | 'lookPointer'
  | 'frame'
  | 'open'
  | 'export'
  | 'save'
  | 'link'
  | 'chrome'
  | 'help'
  | 'dismiss';

export interface Shortcut {
  readonly action: ShortcutAction;
  /** The KeyboardEvent.key values that trigger it (Shift only changes the direction where `label` says so). */
  readonly keys: readonly string[];
  /** The keys as the help shows them. */
  readonly label: string;
  /** What it does, in the help's words. */
  readonly help: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'play', keys: [' '], label: 'Space', help: 'play / pause' },
  { action: 'step', keys: ['ArrowLeft', 'ArrowRight'], label: '← →', help: 'step one frame (1/30 s)' },
  { action: 'clip', keys: ['[', ']'], label: '[ ]', help: 'previous / next clip' },
  { action: 'skeleton', keys: ['k', 'K'], label: 'K', help: 'skeleton overlay' },
  { action: 'wireframe', keys: ['w', 'W'], label: 'W', help: 'wireframe view' },
  { action: 'technique', keys: ['t', 'T'], label: 'T, Shift+T', help: 'next / previous skinning technique' },
  { action: 'compare', keys: ['c', 'C'], label: 'C', help: 'compare side by side (this technique | dual-quat, or the last pair); drag the divider' },
  { action: 'view', keys: ['v', 'V'], label: 'V, Shift+V', help: 'next / previous view (weights, influences, groups, diff …)' },
  { action: 'bindPose', keys: ['b', 'B'], label: 'B', help: 'bind pose (identity palette)' },
  { action: 'grid', keys: ['g', 'G'], label: 'G', help: 'floor (grid and shadow)' },
  { action: 'shadows', keys: ['d', 'D'], label: 'D', help: "shadows: the key light's shadow map" },
  { action: 'lookAt', keys: ['y', 'Y'], label: 'Y', help: 'look-at: the head follows the camera' },
  { action: 'lookPointer', keys: ['e', 'E'], label: 'hold E', help: 'the head follows the pointer' },
  { action: 'frame', keys: ['f', 'F'], label: 'F', help: 'frame the model' },
  { action: 'open', keys: ['o', 'O'], label: 'O', help: 'open a model file' },
  { action: 'export', keys: ['x', 'X'], label: 'X', help: 'export the model as binary glTF (.glb)' },
  { action: 'save', keys: ['s', 'S'], label: 'S', help: "save a picture (PNG, the canvas's pixel size)" },
  { action: 'link', keys: ['l', 'L'], label: 'L', help: 'copy a link to this view' },
  { action: 'chrome', keys: ['h', 'H'], label: 'H', help: 'hide / show panels' },
  { action: 'help', keys: ['?'], label: '?', help: 'this help' },
  { action: 'dismiss', keys: ['Escape'], label: 'Esc', help: 'close the error message' },
];

const BY_KEY = new Map<string, ShortcutAction>(SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s.action] as const)));

/** The action of a pressed key (KeyboardEvent.key), or null. */
export function shortcutFor(key: string): ShortcutAction | null {
  return BY_KEY.get(key) ?? null;
}

/** The pointer and touch gestures the help lists before the keys: [gesture, what it does]. */
export const GESTURES: readonly (readonly [string, string])[] = [
  ['drag, one finger', 'orbit'],
  ['right-drag / shift-drag', 'pan'],
  ['two fingers', 'pinch to zoom, move to pan'],
  ['wheel', 'zoom'],
  ['double-click, double tap', 'frame the model'],
  ['hover, click the model', 'name / select the bone there'],
  ['click, drag the timeline', 'seek / scrub'],
];
