import { AnimPlayer } from '../anim/player.ts';
import { skinMesh } from '../anim/software-skin.ts';
import type { Scene } from '../model/types.ts';

/**
 * Where the camera should look: the union of the CPU-skinned mesh bounds over every clip (sampled at
 * SAMPLES_PER_CLIP times) and the bind pose, in model space. Load time only (allocates).
 */
export interface Framing {
  readonly min: [number, number, number];
  readonly max: [number, number, number];
  readonly centre: [number, number, number];
  /** Radius of the bounding sphere around `centre`. */
  readonly radius: number;
  /** Lowest y reached: where the floor grid goes. */
  readonly floorY: number;
}

const SAMPLES_PER_CLIP = 12;

export function animatedFraming(scene: Scene): Framing {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const grow = (p: Float32Array): void => {
    for (let i = 0; i < p.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = p[i + k]!;
        if (v < min[k]!) min[k] = v;
        if (v > max[k]!) max[k] = v;
      }
    }
  };
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  const palettes = scene.meshes.map((m) => new Float32Array(m.bones.length * 16));
  const positions = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
  const normals = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
  const pose = (): void => {
    player.evaluate();
    scene.meshes.forEach((m, i) => {
      player.writePalette(m, palettes[i]!, 0);
      skinMesh(m, palettes[i]!, positions[i]!, normals[i]!);
      grow(positions[i]!);
    });
  };
  if (scene.clips.length === 0) pose();
  scene.clips.forEach((clip, c) => {
    player.play(c, 0);
    for (let s = 0; s < SAMPLES_PER_CLIP; s++) {
      player.setTime((clip.duration * s) / (SAMPLES_PER_CLIP - 1));
      pose();
    }
  });
  for (const m of scene.meshes) grow(m.positions);
  if (!Number.isFinite(min[0])) {
    min.fill(-1);
    max.fill(1);
  }
  const centre: [number, number, number] = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const radius = Math.max(1e-6, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2);
  return { min, max, centre, radius, floorY: min[1] };
}
