import type { AnimPlayer } from '../anim/player.ts';
import type { LookAt } from '../anim/look-at.ts';
import type { PaletteSet } from '../anim/palette-set.ts';
import type { Scene } from '../model/types.ts';
import type { ModelGpu } from '../render/model-gpu.ts';
import type { Framing } from './framing.ts';
import type { UpChoice } from './up-axis.ts';

/**
 * The app's two shared shapes: a model that loaded completely and is being drawn, and what the app tells
 * the page chrome. Types only: every job of src/app reads them, none of them owns them.
 */

/** A model that loaded completely and is being drawn. */
export interface LoadedModel {
  /** The `model` value that loaded it (built-in id, URL, or file name). */
  readonly id: string;
  /** Where it came from: a built-in or a URL can be linked to; a file opened from disk cannot. */
  readonly origin: 'builtin' | 'url' | 'file';
  /** The detail level it was loaded at ('' for a model without levels). */
  readonly detail: string;
  readonly label: string;
  readonly scene: Scene;
  readonly player: AnimPlayer;
  /** The player's palettes, one per distinct skin (built at load with the player); the renderer updates it once per frame. */
  readonly palettes: PaletteSet;
  readonly gpu: ModelGpu;
  readonly framing: Framing;
  /** The load's warnings, then those about requests this model could honour only in part (a morph weight clamped). */
  readonly warnings: string[];
  /** Palette bytes per frame (all meshes). */
  readonly paletteBytes: number;
  /** Skeleton nodes that skin a vertex, in skeleton order: what the `bone` key indexes. */
  readonly bones: readonly number[];
  /** The weights view's default bone (the node weighting the most vertices), or -1. */
  readonly defaultBone: number;
  /** The clip the model starts with when no `clip` is asked for (the built-in's, else the first), or ''. */
  readonly startClip: string;
  /** The head chain that turns towards the camera (`lookAt`), or null when the skeleton has none. */
  readonly lookAt: LookAt | null;
  /** Which of the file's axes stands up, and why (up-axis.ts; info().up). */
  readonly up: UpChoice;
  /**
   * The load's work that its first frame does not need (the footstep keys the feet give, footstep-keys.ts):
   * App.adopt runs it once that frame is on screen, before the load ends (readiness "ready") and before the
   * page's panel is first filled in.
   */
  readonly afterFirstFrame: () => void;
}

/** What the app tells the page chrome (GUI, overlays); implemented in src/ui and wired in main.ts. */
export interface AppView {
  progress(message: string | null, fraction?: number): void;
  error(message: string | null): void;
  modelChanged(model: LoadedModel): void;
  stateChanged(): void;
  /**
   * A model's first frame is drawn (App.adopt): the load ends (readiness "ready") once what this returns settles.
   * The page builds its panel here after the first model's frame has been shown (main.ts).
   */
  modelShown?(): Promise<void> | void;
}
