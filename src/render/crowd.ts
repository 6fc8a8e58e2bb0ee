import { AnimPlayer } from '../anim/player.ts';
import { CrowdPalette } from '../gpu/crowd-palette.ts';
import type { Scene } from '../model/types.ts';
import type { PoseSource } from '../techniques/technique.ts';
import { crowdTime } from './crowd-layout.ts';

/**
 * Crowd mode's per-model state: the one palette texture every instance's palettes live in (CrowdPalette)
 * and a second AnimPlayer sampled at each instance's own time (crowd-layout.ts crowdTime). Instance 0 is
 * the app's own player (its crossfades, pause and time as the single-model view); instances 1..N-1 play
 * the same clip at their phase (crossfades not followed). Morph targets are not applied in crowd mode.
 *
 * Palette layout inside an instance block: mesh m's palette (mesh.bones order, as buildPalette writes it)
 * starts at slot meshBase[m]; slotsPerInstance = Σ max(1, bones). pose() allocates nothing once reserve()
 * has sized the texture; dispose() releases the texture.
 */
export class CrowdModel {
  readonly meshBase: Int32Array;
  readonly slotsPerInstance: number;
  readonly palette: CrowdPalette;
  private readonly player: AnimPlayer;

  constructor(
    gl: WebGL2RenderingContext,
    readonly scene: Scene,
    maxTextureSize: number,
  ) {
    this.meshBase = new Int32Array(scene.meshes.length);
    let slots = 0;
    scene.meshes.forEach((m, i) => {
      this.meshBase[i] = slots;
      slots += Math.max(1, m.bones.length);
    });
    this.slotsPerInstance = slots;
    this.palette = new CrowdPalette(gl, slots, maxTextureSize);
    this.player = new AnimPlayer(scene.skeleton, scene.clips);
  }

  /** Instances this device can hold (texture height limit), at most `wanted`. */
  fit(wanted: number): number {
    return Math.max(1, Math.min(wanted, this.palette.maxInstances));
  }

  /**
   * Writes the palettes of instances 0..count-1 into the texture's array (palette.upload(count) sends
   * them). `main` is the evaluated app player (instance 0, and the clip and time the others follow);
   * `fixed`, when not null, poses every instance the same (the bind pose toggle).
   */
  pose(main: AnimPlayer, fixed: PoseSource | null, count: number): void {
    const pal = this.palette;
    pal.reserve(count);
    const data = pal.data;
    const meshes = this.scene.meshes;
    const slots = this.slotsPerInstance;
    const base = this.meshBase;
    const p = this.player;
    const clip = main.clipIndex;
    if (clip >= 0 && p.clipIndex !== clip) p.play(clip, 0);
    const duration = main.duration;
    const t = main.time;
    for (let i = 0; i < count; i++) {
      let source: PoseSource = main;
      if (fixed) source = fixed;
      else if (i > 0) {
        p.setTime(crowdTime(i, t, duration));
        p.evaluate();
        source = p;
      }
      for (let m = 0; m < meshes.length; m++) source.writePalette(meshes[m]!, data, (i * slots + base[m]!) * 16);
    }
  }

  dispose(): void {
    this.palette.dispose();
  }
}
