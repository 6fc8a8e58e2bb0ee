/**
 * The three.js peer for the CPU-animation benchmark: the same skeleton, the same keyframes and the same
 * inverse-bind matrices as one of our Scenes, converted once into three.js objects.
 *
 * Contract
 * - Bones: one THREE.Bone per skeleton node (bone and non-bone frames alike, as localToModel does), named
 *   `n<index>` so PropertyBinding never trips over a file's node names, with the rest TRS of
 *   Skeleton.restLocal, parented as Skeleton.parents; roots hang under one identity Group (`root`).
 * - Clip: per Track a VectorKeyframeTrack (.position, .scale) and a QuaternionKeyframeTrack (.quaternion,
 *   xyzw) from our Channels, times in seconds, linear interpolation, duration = Clip.duration; channels
 *   with no keys are left out (the rest pose holds, as in sampleClip). The action loops (LoopRepeat), as
 *   AnimPlayer does with `loop`.
 * - One THREE.Skeleton per mesh: bones in palette-slot order (SkinnedMesh.bones), boneInverses from
 *   SkinnedMesh.invBind, so Skeleton.update() writes boneMatrices = matrixWorld · boneInverse — our
 *   buildPalette — into `skeletons[m].boneMatrices` (16 floats per slot, column-major).
 * - frame(dt): mixer.update(dt) + root.updateMatrixWorld() + Skeleton.update() per mesh: three's
 *   per-frame CPU animation path (what WebGLRenderer triggers for each SkinnedMesh).
 * - buildThreeMultiPeer: the same rig with several actions at once (three's layering), for the tracks bench.
 * - Conversion allocates; frame() allocates what three.js allocates (nothing in steady state).
 */

import * as THREE from 'three';
import type { Clip, Scene } from '../model/types.ts';
import { TRS_STRIDE } from '../model/types.ts';

export interface ThreePeer {
  readonly root: THREE.Group;
  readonly bones: readonly THREE.Bone[];
  readonly skeletons: readonly THREE.Skeleton[];
  readonly mixer: THREE.AnimationMixer;
  readonly action: THREE.AnimationAction;
  /** Advances the mixer by dt seconds and recomputes every bone matrix. */
  frame(dt: number): void;
  /** Places the action at exactly t seconds and recomputes every bone matrix. */
  setTime(t: number): void;
}

export function toThreeClip(clip: Clip): THREE.AnimationClip {
  const tracks: THREE.KeyframeTrack[] = [];
  for (const track of clip.tracks) {
    const name = `n${track.node}`;
    const t = track.translation, r = track.rotation, s = track.scale;
    if (t !== null && t.times.length > 0) tracks.push(new THREE.VectorKeyframeTrack(`${name}.position`, t.times as unknown as number[], t.values as unknown as number[]));
    if (r !== null && r.times.length > 0) tracks.push(new THREE.QuaternionKeyframeTrack(`${name}.quaternion`, r.times as unknown as number[], r.values as unknown as number[]));
    if (s !== null && s.times.length > 0) tracks.push(new THREE.VectorKeyframeTrack(`${name}.scale`, s.times as unknown as number[], s.values as unknown as number[]));
  }
  return new THREE.AnimationClip(clip.name, clip.duration, tracks);
}

/** The bones, the root group and one Skeleton per mesh (see the contract); no clip yet. */
export interface ThreeRig {
  readonly root: THREE.Group;
  readonly bones: readonly THREE.Bone[];
  readonly skeletons: readonly THREE.Skeleton[];
}

export function buildThreeRig(scene: Scene): ThreeRig {
  const { parents, restLocal } = scene.skeleton;
  const root = new THREE.Group();
  const bones: THREE.Bone[] = [];
  for (let i = 0; i < parents.length; i++) {
    const b = new THREE.Bone();
    b.name = `n${i}`;
    const l = i * TRS_STRIDE;
    b.position.set(restLocal[l], restLocal[l + 1], restLocal[l + 2]);
    b.quaternion.set(restLocal[l + 3], restLocal[l + 4], restLocal[l + 5], restLocal[l + 6]);
    b.scale.set(restLocal[l + 7], restLocal[l + 8], restLocal[l + 9]);
    bones.push(b);
    const p = parents[i];
    (p < 0 ? root : bones[p]).add(b);
  }
  const skeletons = scene.meshes.map((mesh) => {
    const slotBones = Array.from(mesh.bones, (node) => bones[node]);
    const inverses = Array.from(mesh.bones, (_, k) => new THREE.Matrix4().fromArray(mesh.invBind, k * 16));
    return new THREE.Skeleton(slotBones, inverses);
  });
  return { root, bones, skeletons };
}

export function buildThreePeer(scene: Scene, clipIndex = 0): ThreePeer {
  const { root, bones, skeletons } = buildThreeRig(scene);
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(toThreeClip(scene.clips[clipIndex]));
  action.setLoop(THREE.LoopRepeat, Infinity);
  action.play();
  const update = (): void => {
    root.updateMatrixWorld();
    for (let m = 0; m < skeletons.length; m++) skeletons[m].update();
  };
  return {
    root,
    bones,
    skeletons,
    mixer,
    action,
    frame(dt: number): void {
      mixer.update(dt);
      update();
    },
    setTime(t: number): void {
      mixer.setTime(t);
      update();
    },
  };
}

/** Several actions on one rig: three's layering (every action weighted into one average per property). */
export interface ThreeMultiPeer extends ThreeRig {
  readonly mixer: THREE.AnimationMixer;
  /** One per entry of `layers`, in that order. */
  readonly actions: readonly THREE.AnimationAction[];
  /** mixer.update(dt) + updateMatrixWorld + Skeleton.update per mesh. */
  frame(dt: number): void;
  /** Puts action k at times[k] seconds (wrapped by the action's loop) and recomputes every bone matrix. */
  setTimes(times: readonly number[]): void;
}

/**
 * buildThreeMultiPeer(scene, layers): the rig of buildThreeRig with one looping action per layer (clip
 * index, weight), played together: mixer.update accumulates them per property as PropertyMixer does (a
 * running weighted average; a property no action animates keeps the bone's rest value). three has no bone
 * masks: a layer that should touch part of the skeleton must use a clip with only that part's tracks.
 */
export function buildThreeMultiPeer(scene: Scene, layers: readonly { clip: number; weight: number }[]): ThreeMultiPeer {
  const rig = buildThreeRig(scene);
  const { root, skeletons } = rig;
  const mixer = new THREE.AnimationMixer(root);
  const actions = layers.map((l) => {
    const a = mixer.clipAction(toThreeClip(scene.clips[l.clip]));
    a.setLoop(THREE.LoopRepeat, Infinity);
    a.setEffectiveWeight(l.weight);
    a.play();
    return a;
  });
  const update = (): void => {
    root.updateMatrixWorld();
    for (let m = 0; m < skeletons.length; m++) skeletons[m].update();
  };
  return {
    ...rig,
    mixer,
    actions,
    frame(dt: number): void {
      mixer.update(dt);
      update();
    },
    setTimes(times: readonly number[]): void {
      actions.forEach((a, k) => {
        a.time = times[k] ?? 0;
      });
      mixer.update(0);
      update();
    },
  };
}
