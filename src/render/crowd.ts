import { bakeCrowd, crowdSlots, type CrowdBake } from '../anim/crowd-bake.ts';
import { PaletteSet } from '../anim/palette-set.ts';
import { AnimPlayer } from '../anim/player.ts';
import { WanderCrowd } from '../anim/wander.ts';
import { CrowdBakeTexture } from '../gpu/crowd-bake-texture.ts';
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
 * Wander mode (poseWander): a WanderCrowd (anim/wander.ts) built on first use, its agents stepped by the
 * app player's clock (its time change per frame: pause, speed and `t` act on the crowd too), every
 * instance's palette premultiplied by its place on the floor. Changing N, spacing or floor re-places the
 * agents (allocating only when N outgrows the crowd).
 *
 * Palette layout inside an instance block (anim/crowd-bake.ts crowdSlots, the bake's layout too): one palette
 * per distinct skin (meshes with equal bones and offset matrices share one: Dawn's 4 meshes one of 100
 * slots), mesh m's (mesh.bones order, as buildPalette writes it) starting at slot meshBase[m];
 * slotsPerInstance = Σ max(1, bones) over the skins. An instance's palettes are computed once per distinct
 * skin (PaletteSet) and written once, bit for bit what writePalette would write for each of its meshes.
 * pose() allocates nothing once reserve() has sized the texture; dispose() releases the textures.
 *
 * The baked path's data (anim/crowd-bake.ts: every clip's palettes at fixed steps and a bounding sphere per
 * clip, which the culling of both paths reads) is built on the first crowd frame of the model (bake(),
 * allocates) and its texture uploaded once.
 */
export class CrowdModel {
  readonly meshBase: Int32Array;
  readonly slotsPerInstance: number;
  /** The meshes that write an instance's palettes: the first of each skin (the others read its slots). */
  private readonly writers: Int32Array;
  readonly palette: CrowdPalette;
  private readonly player: AnimPlayer;
  /** One palette per distinct skin of the scene's meshes, reused for every instance. */
  private readonly palettes: PaletteSet;
  private wander: WanderCrowd | null = null;
  private baked: CrowdBake | null = null;
  private bakedTexture: CrowdBakeTexture | null = null;
  /** Milliseconds the bake and its upload took. */
  bakeMs = 0;
  /** [0] the app player's time at the last wander frame, [1] its clip (-2: none yet), [2] spacing, [3] floor. */
  private readonly wanderClock = Float64Array.of(0, -2, 0, 0);

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly scene: Scene,
    private readonly maxTextureSize: number,
  ) {
    this.meshBase = new Int32Array(scene.meshes.length);
    const slots = crowdSlots(scene, this.meshBase);
    this.slotsPerInstance = slots;
    this.writers = Int32Array.from(scene.meshes.keys()).filter((m) => this.meshBase.indexOf(this.meshBase[m]!) === m);
    this.palette = new CrowdPalette(gl, slots, maxTextureSize);
    this.player = new AnimPlayer(scene.skeleton, scene.clips);
    this.palettes = new PaletteSet(scene.meshes);
  }

  /** Instances this device can hold (texture height limit), at most `wanted`. */
  fit(wanted: number): number {
    return Math.max(1, Math.min(wanted, this.palette.maxInstances));
  }

  /** The bake (built on the first call: allocates, load-time work). */
  bake(): CrowdBake {
    if (this.baked === null) {
      const t0 = performance.now();
      this.baked = bakeCrowd(this.scene);
      this.bakedTexture = new CrowdBakeTexture(this.gl, this.baked, this.maxTextureSize);
      this.bakeMs = performance.now() - t0;
    }
    return this.baked;
  }

  /** The bake's texture (after bake()); its `fits` is false when the device cannot hold it. */
  get bakeTexture(): CrowdBakeTexture | null {
    return this.bakedTexture;
  }

  /**
   * Writes the palettes of `count` instances into the texture's array (palette.upload(count) sends them):
   * block j holds instance order[j] (culling's compacted order; identity when `order` is null). `main` is
   * the evaluated app player (instance 0, and the clip and time the others follow); `fixed`, when not
   * null, poses every instance the same (the bind pose toggle).
   */
  pose(main: AnimPlayer, fixed: PoseSource | null, count: number, order: Int32Array | null = null): void {
    const pal = this.palette;
    pal.reserve(count);
    const data = pal.data;
    const meshes = this.scene.meshes;
    const writers = this.writers;
    const slots = this.slotsPerInstance;
    const base = this.meshBase;
    const p = this.player;
    const clip = main.clipIndex;
    if (clip >= 0 && p.clipIndex !== clip) p.play(clip, 0);
    const duration = main.duration;
    const t = main.time;
    const set = this.palettes;
    for (let j = 0; j < count; j++) {
      const i = order === null ? j : order[j]!;
      let source: PoseSource = set;
      if (fixed) source = fixed;
      else if (i > 0) {
        p.setTime(crowdTime(i, t, duration));
        p.evaluate();
        set.update(p.model);
      } else set.update(main.model);
      for (let w = 0; w < writers.length; w++) {
        const m = writers[w]!;
        source.writePalette(meshes[m]!, data, (j * slots + base[m]!) * 16);
      }
    }
  }

  /**
   * Wander mode: steps the agents by the app player's time change since the last call (0 on the first
   * call, after a clip change or backwards; at most 0.1 s), evaluates them and writes instances
   * 0..count-1's palettes (`fixed`: the bind pose, each agent keeps its place).
   */
  poseWander(main: AnimPlayer, fixed: PoseSource | null, count: number, spacing: number, floorY: number): void {
    const pal = this.palette;
    pal.reserve(count);
    const clock = this.wanderClock;
    let w = this.wander;
    if (w === null) w = this.wander = new WanderCrowd(this.scene, { count, spacing, floorY, seed: 1 });
    else if (w.count !== count || clock[2] !== spacing || clock[3] !== floorY) w.configure(count, spacing, floorY);
    clock[2] = spacing;
    clock[3] = floorY;
    let dt = 0;
    if (clock[1] === main.clipIndex) {
      dt = main.time - clock[0]!;
      if (dt < -0.5 * main.duration) dt += main.duration;
      if (!(dt > 0)) dt = 0;
      else if (dt > 0.1) dt = 0.1;
    }
    clock[0] = main.time;
    clock[1] = main.clipIndex;
    w.step(dt);
    w.evaluate();
    w.writePalettes(this.scene, pal.data, this.slotsPerInstance, this.meshBase, count, fixed);
  }

  /** Footsteps per second of the wander crowd (0 before wander mode ran). */
  get footstepRate(): number {
    return this.wander === null ? 0 : this.wander.footstepRate;
  }

  dispose(): void {
    this.palette.dispose();
    this.bakedTexture?.dispose();
    this.bakedTexture = null;
    this.baked = null;
    this.wander = null;
  }
}
