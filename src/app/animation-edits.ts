import type { AnimController } from '../anim/controller/controller.ts';
import type { AppView, LoadedModel } from './loaded-model.ts';
import { applyClip, setMorphWeight } from './model-state.ts';
import type { AppState } from './state.ts';
import { addMarker, enterTracksMode, syncTracksState, transitionTo } from './tracks-state.ts';

/** What the edits need of the app: its state, the model drawn (read at each call), failure reporting, the page. */
export interface AnimationHost {
  readonly state: AppState;
  readonly current: LoadedModel | null;
  readonly view: AppView;
  fail(message: string): void;
}

/**
 * The panel's and the page's edits of what plays (`app.anim`): clips, animation-controller tracks, callback
 * keys and hand-set morph weights, each applied to the current model's player and written into the state so a
 * link reproduces it. Owns nothing; a call without a model does nothing (addMarker throws).
 */
export class AnimationEdits {
  constructor(private readonly host: AnimationHost) {}

  /** GUI: sets one target's weight by hand (null: back to its track). Unknown names are ignored. */
  setMorph(name: string, weight: number | null): void {
    const m = this.host.current;
    if (m) setMorphWeight(this.host.state, m, name, weight);
  }

  /** GUI Reset: every target back to its track (or 0 with the track off). */
  resetMorphs(): void {
    this.host.state.morph = {};
    this.host.current?.player.resetMorphs();
  }

  /** Starts clip `name` with the state's crossfade (GUI); in tracks mode, a transition to it on the tracks. */
  playClip(name: string): void {
    const { state, current: m } = this.host;
    if (m && state.tracks !== '') {
      this.transitionTo(name, state.paused ? 0 : state.crossfade);
      return;
    }
    state.clip = name;
    if (m) applyClip(state, m, state.paused ? 0 : state.crossfade, (msg) => this.host.fail(msg));
  }

  /**
   * Tracks panel: runs `edit` on the current model's controller (tracks mode entered first, from the clip
   * playing), then writes the controller's setup back into state.tracks so a link reproduces it.
   */
  editTracks(edit: (c: AnimController) => void): void {
    const { state, current: m } = this.host;
    if (!m) return;
    enterTracksMode(state, m);
    edit(m.player.controller);
    syncTracksState(state, m);
    this.host.view.stateChanged();
  }

  /** "Transition to clip over N s" (Tracks panel, clip menu in tracks mode): weight events on the tracks. */
  transitionTo(clip: string, seconds: number): void {
    const m = this.host.current;
    if (!m) return;
    enterTracksMode(this.host.state, m);
    if (!transitionTo(m, clip, seconds)) this.host.fail(`transition: no clip named ${clip}`);
  }

  /**
   * A callback key set from the page (`skinlab.addMarker`, the Tracks panel): clip by name or index, time in
   * seconds (clamped to the clip), a one-word name. Throws a clear error for a bad clip or name.
   */
  addMarker(clip: string | number, time: number, name: string): void {
    const m = this.host.current;
    if (!m) throw new Error('addMarker: no model loaded');
    addMarker(m, clip, time, name);
  }

  /** Brings state.tracks up to date with what the controller plays (links, after transitions). */
  syncTracks(): void {
    syncTracksState(this.host.state, this.host.current);
  }
}
