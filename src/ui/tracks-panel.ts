import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { App, LoadedModel } from '../app/app.ts';
import type { AnimController, Priority } from '../anim/controller/controller.ts';
import { groundSpeed } from '../anim/footsteps.ts';
import { VISIBLE_TRACKS } from '../app/tracks-state.ts';

/**
 * The Tracks folder of the panel: the animation controller's first four tracks (clip, weight, speed,
 * enabled, priority, mask bone, additive), the priority blend, "transition to clip over N s", phase sync
 * of the low-priority tracks, a 1D blend space over them driven by one speed value, and look-at. Every
 * edit goes through App.editTracks / App.set, which keep AppState (and so the link) in step; the panel
 * never touches GL. Values follow the controller 4 times a second (transitions move weights).
 */

const NONE = '(none)';
const ALL = '(whole body)';

interface TrackProxy {
  clip: string;
  weight: number;
  speed: number;
  enabled: boolean;
  priority: Priority;
  mask: string;
  additive: boolean;
}

export class TracksPanel {
  readonly folder: GUI;
  private readonly tracks: TrackProxy[] = [];
  private readonly trackFolders: GUI[] = [];
  private readonly perTrack: Controller[][] = [];
  private readonly misc = {
    priorityBlend: 1,
    transitionClip: '',
    transitionSeconds: 0.5,
    transition: (): void => this.app.anim.transitionTo(this.misc.transitionClip, this.misc.transitionSeconds),
    sync: false,
    blendSpace: false,
    blendSpeed: 0,
    lookAt: false,
    lookAtWeight: 1,
    addKey: (): void => this.addKey(),
  };
  private keys = 0;
  private transitionCtl: Controller | null = null;
  private blendSpeedCtl: Controller | null = null;
  private lastSync = 0;

  constructor(parent: GUI, private readonly app: App) {
    this.folder = parent.addFolder('Tracks');
    this.folder.close();
    for (let t = 0; t < VISIBLE_TRACKS; t++) {
      this.tracks.push({ clip: NONE, weight: 1, speed: 1, enabled: false, priority: 'low', mask: ALL, additive: false });
      const f = this.folder.addFolder(`Track ${t}`);
      if (t > 0) f.close();
      this.trackFolders.push(f);
      this.perTrack.push([]);
    }
    const m = this.misc;
    this.folder.add(m, 'priorityBlend', 0, 1, 0.01).name('priority blend').onChange((v: number) => {
      app.anim.editTracks((c) => {
        c.priorityBlend = v;
      });
    }).domElement.title = 'Share of the high-priority tracks where they animate a frame (D3DX SetPriorityBlend)';
    this.folder.add(m, 'sync').name('phase sync (low tracks)').onChange((on: boolean) => this.applySync(on)).domElement.title =
      'Low-priority tracks advance by normalised time, so blended walk and jog keep their feet in step';
    this.folder.add(m, 'blendSpace').name('blend space by speed').onChange(() => this.applyBlendSpace()).domElement.title =
      "The low-priority tracks' weights set from one speed, between the two clips whose ground speeds surround it";
    this.blendSpeedCtl = this.folder.add(m, 'blendSpeed', 0, 1, 0.01).decimals(1).name('speed (units/s)').onChange((v: number) => {
      app.anim.editTracks((c) => c.setBlendValue(v));
    });
    this.folder.add(m, 'addKey').name('Add key at track 0\'s time').domElement.title =
      "A callback key named key_N on track 0's clip at its current time: it shows on the timeline and fires like a key from the file";
    this.folder.add(m, 'lookAt').name('look at camera').onChange((on: boolean) => {
      void app.set({ lookAt: on ? m.lookAtWeight : 0 });
    });
    this.folder.add(m, 'lookAtWeight', 0, 1, 0.05).name('look-at weight').onFinishChange((w: number) => {
      if (m.lookAt) void app.set({ lookAt: w });
    });
  }

  /** Rebuilds the per-model menus (clips, bones). */
  modelChanged(model: LoadedModel): void {
    const clips = [NONE, ...model.scene.clips.map((c) => c.name)];
    const bones = [ALL, ...model.scene.skeleton.names];
    for (let t = 0; t < VISIBLE_TRACKS; t++) {
      for (const ctl of this.perTrack[t]!) ctl.destroy();
      const f = this.trackFolders[t]!;
      const p = this.tracks[t]!;
      const edit = (fn: (c: AnimController) => void): void => this.app.anim.editTracks(fn);
      this.perTrack[t] = [
        f.add(p, 'clip', clips).name('clip').onChange((name: string) =>
          edit((c) => {
            const i = model.scene.clips.findIndex((x) => x.name === name);
            c.setTrackClip(t, i);
            if (i >= 0 && !c.trackEnabled(t)) {
              c.setTrackPosition(t, 0);
              c.setTrackEnable(t, true);
            }
          }),
        ),
        f.add(p, 'weight', 0, 1, 0.01).decimals(2).name('weight').onChange((v: number) => edit((c) => c.setTrackWeight(t, v))),
        f.add(p, 'speed', -2, 3, 0.05).decimals(2).name('speed').onChange((v: number) => edit((c) => c.setTrackSpeed(t, v))),
        f.add(p, 'enabled').name('enabled').onChange((v: boolean) => edit((c) => c.setTrackEnable(t, v))),
        f.add(p, 'priority', ['low', 'high']).name('priority').onChange((v: Priority) => edit((c) => c.setTrackPriority(t, v))),
        f.add(p, 'mask', bones).name('mask (subtree)').onChange((name: string) =>
          edit((c) => c.setTrackMask(t, name === ALL ? -1 : model.scene.skeleton.names.indexOf(name))),
        ),
        f.add(p, 'additive').name('additive').onChange((v: boolean) => edit((c) => c.setTrackAdditive(t, v))),
      ];
    }
    this.transitionCtl?.destroy();
    const names = model.scene.clips.map((c) => c.name);
    this.misc.transitionClip = names[0] ?? '';
    this.transitionCtl = this.folder.add(this.misc, 'transitionClip', names.length > 0 ? names : [NONE]).name('transition to');
    const seconds = this.folder.add(this.misc, 'transitionSeconds', 0, 3, 0.05).name('over (s)');
    const go = this.folder.add(this.misc, 'transition').name('Transition');
    this.transitionCtl.domElement.after(seconds.domElement);
    seconds.domElement.after(go.domElement);
    this.folder.show(model.scene.clips.length > 0);
    this.misc.sync = false;
    this.misc.blendSpace = false;
    this.refresh();
  }

  /** Pulls the controller's live setup into the folder (4 times a second from frame()). */
  refresh(): void {
    const m = this.app.current;
    if (!m) return;
    const c = m.player.controller;
    const names = m.scene.skeleton.names;
    for (let t = 0; t < VISIBLE_TRACKS; t++) {
      const p = this.tracks[t]!;
      const clip = c.trackClip(t);
      p.clip = clip >= 0 ? m.scene.clips[clip]!.name : NONE;
      p.weight = c.trackWeight(t);
      p.speed = c.trackSpeed(t);
      p.enabled = c.trackEnabled(t);
      p.priority = c.trackPriority(t);
      p.mask = c.trackMask(t) >= 0 ? names[c.trackMask(t)] ?? ALL : ALL;
      p.additive = c.trackAdditive(t);
      for (const ctl of this.perTrack[t]!) ctl.updateDisplay();
    }
    this.misc.priorityBlend = c.priorityBlend;
    this.blendSpeedCtl?.enable(this.misc.blendSpace);
    this.misc.lookAt = this.app.state.lookAt > 0;
    if (this.app.state.lookAt > 0) this.misc.lookAtWeight = this.app.state.lookAt;
    for (const ctl of this.folder.controllers) ctl.updateDisplay();
  }

  frame(now: number): void {
    if (now - this.lastSync < 250 || this.folder._closed) return;
    this.lastSync = now;
    this.refresh();
  }

  /** A callback key on track 0's clip at its current time (skinlab.addMarker). */
  private addKey(): void {
    const m = this.app.current;
    if (!m) return;
    const c = m.player.controller;
    const clip = c.trackClip(0) >= 0 ? c.trackClip(0) : m.player.clipIndex;
    if (clip < 0) return;
    this.app.anim.addMarker(clip, c.trackClip(0) >= 0 ? c.trackTime(0) : m.player.time, `key_${++this.keys}`);
  }

  /** Puts every enabled, non-additive low-priority track into sync group 0 (or takes them out). */
  private applySync(on: boolean): void {
    this.app.anim.editTracks((c) => {
      for (let t = 0; t < c.trackCount; t++) {
        const member = c.trackEnabled(t) && c.trackClip(t) >= 0 && !c.trackAdditive(t) && c.trackPriority(t) === 'low';
        c.setTrackSync(t, on && member ? 0 : -1);
      }
    });
  }

  /**
   * Blend space over the enabled low-priority tracks, placed at their clips' ground speeds (footsteps.ts);
   * the speed slider spans them. Turning it on also syncs them.
   */
  private applyBlendSpace(): void {
    const m = this.app.current;
    if (!m) return;
    if (!this.misc.blendSpace) {
      this.app.anim.editTracks((c) => c.setBlendSpace([]));
      return;
    }
    const points: { track: number; value: number }[] = [];
    const c = m.player.controller;
    for (let t = 0; t < VISIBLE_TRACKS; t++) {
      if (!c.trackEnabled(t) || c.trackClip(t) < 0 || c.trackAdditive(t) || c.trackPriority(t) !== 'low') continue;
      points.push({ track: t, value: groundSpeed(m.scene, c.trackClip(t)) });
    }
    if (points.length < 2) {
      this.app.fail('blend space: needs at least two enabled low-priority tracks (for example Loiter, Walk and Jog)');
      this.misc.blendSpace = false;
      this.refresh();
      return;
    }
    const lo = Math.min(...points.map((p) => p.value));
    const hi = Math.max(...points.map((p) => p.value));
    this.misc.sync = true;
    this.misc.blendSpeed = (lo + hi) / 2;
    this.blendSpeedCtl?.min(lo).max(hi > lo ? hi : lo + 1).step((hi - lo) / 200 || 0.01);
    this.app.anim.editTracks((ctl) => {
      ctl.setBlendSpace(points, 0);
      ctl.setBlendValue(this.misc.blendSpeed);
    });
  }
}
