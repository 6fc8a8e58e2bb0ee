import { AnimPlayer } from '../anim/player.ts';
import { computeBounds } from '../anim/bounds.ts';
import { PosedBounds } from '../anim/posed-bounds.ts';
import type { Scene } from '../model/types.ts';

/**
 * Where the camera should look: the union of the CPU-skinned mesh bounds over every clip (sampled at
 * SAMPLES_PER_CLIP times), the rest pose and the bind pose, in model space. Load time only (allocates).
 */
export interface Framing {
  readonly min: [number, number, number];
  readonly max: [number, number, number];
  readonly centre: [number, number, number];
  /** Radius of the bounding sphere around `centre`. */
  readonly radius: number;
  /**
   * Where the floor grid goes: the lowest y the rest pose and the clips reach. The bind pose (stored
   * vertices) counts only for a model without clips: tiny.x's is another pose at another scale, below her feet.
   */
  readonly floorY: number;
}

const SAMPLES_PER_CLIP = 12;

export function animatedFraming(scene: Scene): Framing {
  const steps = framingSteps(scene);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * animatedFraming in steps, for a caller that lets its thread do other work between them (the parse worker,
 * model-prep.ts): it pauses after the rest pose and after each clip, and returns the same Framing.
 */
export function* framingSteps(scene: Scene): Generator<void, Framing, void> {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const poseMin = [0, 0, 0];
  const poseMax = [0, 0, 0];
  // Morphed as the page draws it: targets at their rest weights, clips' morph tracks playing.
  const player = AnimPlayer.forScene(scene);
  const bounds = new PosedBounds(scene);
  const grow = (): void => {
    player.evaluate();
    bounds.measure(player, poseMin, poseMax);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, poseMin[k]!);
      max[k] = Math.max(max[k]!, poseMax[k]!);
    }
  };
  // The rest pose (the bind pose for skinned meshes), then every clip at evenly spaced times.
  grow();
  let floorY = min[1];
  for (let c = 0; c < scene.clips.length; c++) {
    yield;
    player.play(c, 0);
    const duration = scene.clips[c]!.duration;
    for (let s = 0; s < SAMPLES_PER_CLIP; s++) {
      player.setTime((duration * s) / (SAMPLES_PER_CLIP - 1));
      grow();
    }
  }
  if (scene.clips.length > 0) floorY = min[1];
  // And the bind pose (the stored vertices) of the skinned meshes: a character bound in a T- or A-pose is then
  // framed symmetrically whatever its clips do. Not for glTF, whose bind space is whatever the inverse bind
  // matrices say (CesiumMan's is Z-up) and whose rigid meshes store vertices in their node's own space (a
  // quantized mesh's integers before its node's scale); nor for a rigid mesh, whose rest pose is counted above.
  const bindIsModelSpace = scene.format !== 'gltf' && scene.format !== 'glb';
  for (const m of scene.meshes) {
    if (m.vertexCount === 0 || !m.skinned || !bindIsModelSpace) continue;
    computeBounds(m.positions, poseMin, poseMax);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, poseMin[k]!);
      max[k] = Math.max(max[k]!, poseMax[k]!);
    }
  }
  if (scene.clips.length === 0) floorY = min[1];
  if (!Number.isFinite(min[0]) || !Number.isFinite(max[0])) {
    min.fill(-1);
    max.fill(1);
    floorY = -1;
  }
  const centre: [number, number, number] = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const radius = Math.max(1e-6, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2);
  return { min, max, centre, radius, floorY };
}
