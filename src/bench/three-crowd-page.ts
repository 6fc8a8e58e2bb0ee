import * as THREE from 'three';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { animatedFraming } from '../app/framing.ts';
import { loadModel } from '../loaders/load-model.ts';
import { TRS_STRIDE, type Clip, type Scene } from '../model/types.ts';
import { OrbitCamera } from '../render/camera.ts';
import { crowdHalfExtent, crowdOffset, crowdSpacing, crowdTime } from '../render/crowd-layout.ts';
import { GpuTimer } from '../gpu/gpu-timer.ts';
import { measureWindow, type WindowResult } from '../app/bench/window.ts';

/**
 * The crowd benchmark's peer (src/bench/browser.ts): three.js drawing N copies of one of our built-in models
 * the way a three.js app would, as SkeletonUtils.clone()d SkinnedMeshes, each with its own AnimationMixer,
 * on a WebGLRenderer. The model is loaded once through our loader and converted (Bones from the skeleton's
 * rest pose, BufferGeometry per mesh with one group per subset, one AnimationClip per clip). Same canvas
 * size, same grid layout and phases (render/crowd-layout.ts), same camera framing, a key and fill light
 * like lit.frag's. Not drawn: textures (flat material colours), the floor.
 *
 * Query: `model` (the model file's address, relative to the site's root), `clip` (name; default the first), `w`, `h`
 * (the canvas's size in pixels, default 800x600: the in-page benchmark passes its own canvas's size).
 * window.threeCrowd: { ready, setCrowd(n) (builds the clones; draws nothing), benchFrames(k) → median ms of k
 * frames (mixers advanced 1/60 s, rendered, finished by a 1-pixel readPixels), benchSplit(k) → the same with
 * the median time until the frame is submitted, benchWindow(k, timer) → the in-page benchmark's window of k
 * frames (app/bench/window.ts: one GPU timer query over them, one readPixels at the end; `timer: 'wall'`
 * without the timer), drawCalls() of the last frame }. The renderer antialiases
 * like the app's context (MSAA), so both rasterise the same samples.
 */

interface ThreeCrowdApi {
  ready: Promise<void>;
  setCrowd(n: number): void;
  benchFrames(frames: number): number;
  /** The same frames, with the median time until each frame's commands are issued (`submitMs`). */
  benchSplit(frames: number): { frameMs: number; submitMs: number };
  /** The in-page benchmark's measurement (app/bench/window.ts) over `frames` frames. */
  benchWindow(frames: number, timer?: 'auto' | 'wall'): Promise<WindowResult>;
  drawCalls(): number;
  triangles(): number;
}

declare global {
  interface Window {
    threeCrowd: ThreeCrowdApi;
  }
}

function toThreeClip(clip: Clip, bones: readonly THREE.Bone[]): THREE.AnimationClip {
  const tracks: THREE.KeyframeTrack[] = [];
  for (const t of clip.tracks) {
    const name = bones[t.node]!.name;
    if (t.translation) tracks.push(new THREE.VectorKeyframeTrack(`${name}.position`, Array.from(t.translation.times), Array.from(t.translation.values)));
    if (t.rotation) tracks.push(new THREE.QuaternionKeyframeTrack(`${name}.quaternion`, Array.from(t.rotation.times), Array.from(t.rotation.values)));
    if (t.scale) tracks.push(new THREE.VectorKeyframeTrack(`${name}.scale`, Array.from(t.scale.times), Array.from(t.scale.values)));
  }
  return new THREE.AnimationClip(clip.name, clip.duration, tracks);
}

/** One three.js character: a Group holding the bone hierarchy and a SkinnedMesh per mesh. */
function toThree(scene: Scene): { root: THREE.Group; clips: THREE.AnimationClip[] } {
  const root = new THREE.Group();
  const { parents, restLocal } = scene.skeleton;
  const bones: THREE.Bone[] = [];
  for (let i = 0; i < parents.length; i++) {
    const b = new THREE.Bone();
    // Unique names: AnimationMixer binds tracks by name.
    b.name = `n${i}`;
    const l = i * TRS_STRIDE;
    b.position.set(restLocal[l]!, restLocal[l + 1]!, restLocal[l + 2]!);
    b.quaternion.set(restLocal[l + 3]!, restLocal[l + 4]!, restLocal[l + 5]!, restLocal[l + 6]!);
    b.scale.set(restLocal[l + 7]!, restLocal[l + 8]!, restLocal[l + 9]!);
    bones.push(b);
    const p = parents[i]!;
    (p >= 0 ? bones[p]! : root).add(b);
  }
  const materials = scene.materials.map(
    (m) => new THREE.MeshPhongMaterial({ color: new THREE.Color(m.diffuse[0], m.diffuse[1], m.diffuse[2]), specular: new THREE.Color(m.specular[0], m.specular[1], m.specular[2]), shininess: m.specularPower, side: THREE.DoubleSide }),
  );
  if (materials.length === 0) materials.push(new THREE.MeshPhongMaterial({ color: 0xcccccc }));
  root.updateMatrixWorld(true);
  for (const mesh of scene.meshes) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
    g.setAttribute('normal', new THREE.BufferAttribute(mesh.normals, 3));
    if (mesh.uvs) g.setAttribute('uv', new THREE.BufferAttribute(mesh.uvs, 2));
    g.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(mesh.joints, 4));
    g.setAttribute('skinWeight', new THREE.BufferAttribute(mesh.weights, 4));
    g.setIndex(new THREE.BufferAttribute(mesh.indices, 1));
    for (const s of mesh.subsets) if (s.count > 0) g.addGroup(s.start * 3, s.count * 3, Math.min(s.material, materials.length - 1));
    const skinned = new THREE.SkinnedMesh(g, materials);
    skinned.frustumCulled = false;
    const meshBones = Array.from(mesh.bones, (n) => bones[n]!);
    const inverses = Array.from({ length: mesh.bones.length }, (_, k) => new THREE.Matrix4().fromArray(mesh.invBind, k * 16));
    root.add(skinned);
    // Our vertices are in bind space and invBind maps model space to it: bind matrix identity.
    skinned.bind(new THREE.Skeleton(meshBones, inverses), new THREE.Matrix4());
  }
  return { root, clips: scene.clips.map((c) => toThreeClip(c, bones)) };
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  // The model's address comes from the page that opens this one (app/bench/peer.ts): this page shares no module
  // with the app's entry script (vite.config.ts entryChunk).
  const path = params.get('model');
  if (!path) throw new Error('three-crowd: no model address');
  const url = new URL(`../${path}`, document.baseURI);
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const scene = loadModel(path.split('/').pop()!, bytes);
  const framing = animatedFraming(scene);
  const { root: prototype, clips } = toThree(scene);
  const clipName = params.get('clip') ?? '';
  const clip = clips.find((c) => c.name === clipName) ?? clips[0] ?? null;

  const canvas = document.getElementById('view') as HTMLCanvasElement;
  const size = (key: string, fallback: number): number => {
    const v = Number(params.get(key));
    return Number.isInteger(v) && v > 0 && v <= 8192 ? v : fallback;
  };
  canvas.width = size('w', canvas.width);
  canvas.height = size('h', canvas.height);
  canvas.style.width = `${canvas.width}px`;
  canvas.style.height = `${canvas.height}px`;
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: false });
  renderer.setPixelRatio(1);
  renderer.setSize(canvas.width, canvas.height, false);
  renderer.setClearColor(new THREE.Color(0.105, 0.115, 0.135), 1);
  renderer.info.autoReset = true;
  const world = new THREE.Scene();
  world.add(new THREE.HemisphereLight(0xbfc8d6, 0x30343c, 0.9));
  const key = new THREE.DirectionalLight(0xffffff, 2.2);
  key.position.set(-0.6, 0.7, 0.45);
  world.add(key);
  const rim = new THREE.DirectionalLight(0x9fb8ff, 0.8);
  rim.position.set(0.7, 0.3, -0.65);
  world.add(rim);
  const camera = new THREE.PerspectiveCamera(40, canvas.width / canvas.height, 0.01, 100);
  const orbit = new OrbitCamera();

  const spacing = crowdSpacing(framing.min, framing.max);
  let figures: { root: THREE.Object3D; mixer: THREE.AnimationMixer }[] = [];
  const offset = [0, 0, 0];
  const extent = [0, 0];

  const setCrowd = (n: number): void => {
    for (const f of figures) {
      world.remove(f.root);
      f.mixer.stopAllAction();
    }
    figures = [];
    for (let i = 0; i < n; i++) {
      const root = cloneSkinned(prototype);
      crowdOffset(i, n, spacing, offset);
      root.position.set(offset[0]!, offset[1]!, offset[2]!);
      const mixer = new THREE.AnimationMixer(root);
      if (clip) {
        mixer.clipAction(clip).play();
        mixer.setTime(crowdTime(i, 0, clip.duration));
      }
      world.add(root);
      figures.push({ root, mixer });
    }
    // The app's crowd framing (app.ts placeCamera): the model's box grown by the grid, yaw 25°, pitch 28° (10° for one).
    crowdHalfExtent(n, spacing, extent);
    orbit.aspect = canvas.width / canvas.height;
    orbit.yawDeg = 25;
    orbit.pitchDeg = n > 1 ? 28 : 10;
    const f = framing;
    orbit.frameBox([f.min[0] - extent[0]!, f.min[1], f.min[2] - extent[1]!], [f.max[0] + extent[0]!, f.max[1], f.max[2] + extent[1]!]);
    orbit.update();
    camera.position.set(orbit.position[0]!, orbit.position[1]!, orbit.position[2]!);
    camera.near = orbit.near;
    camera.far = orbit.far;
    camera.aspect = orbit.aspect;
    camera.updateProjectionMatrix();
    camera.lookAt(orbit.target[0]!, orbit.target[1]!, orbit.target[2]!);
  };

  // three.js r163+ renders with WebGL2 only.
  const gl = renderer.getContext() as WebGL2RenderingContext;
  const pixel = new Uint8Array(4);
  let drawCalls = 0;
  let triangles = 0;
  const frame = (dt: number): void => {
    for (const f of figures) f.mixer.update(dt);
    renderer.render(world, camera);
    drawCalls = renderer.info.render.calls;
    triangles = renderer.info.render.triangles;
  };
  let gpuTimer: GpuTimer | undefined;
  let wallTimer: GpuTimer | undefined;
  const api: ThreeCrowdApi = {
    ready: Promise.resolve(),
    setCrowd(n) {
      // Only when N changes (clones and mixers are built here, not in the timed frames).
      if (n !== figures.length) setCrowd(n);
    },
    benchFrames(k) {
      return api.benchSplit(k).frameMs;
    },
    benchSplit(k) {
      const times: number[] = [];
      const submits: number[] = [];
      for (let i = 0; i < k; i++) {
        const t0 = performance.now();
        frame(1 / 60);
        submits.push(performance.now() - t0);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
        times.push(performance.now() - t0);
      }
      const median = (a: number[]): number => a.sort((x, y) => x - y)[a.length >> 1]!;
      return { frameMs: median(times), submitMs: median(submits) };
    },
    benchWindow(k, timer = 'auto') {
      const t = timer === 'wall' ? (wallTimer ??= new GpuTimer(gl, { force: 'wall' })) : (gpuTimer ??= new GpuTimer(gl));
      return measureWindow(gl, t, { draw: (dt) => frame(dt), cpuAnimUs: () => 0, skinUs: () => 0, drawCalls: () => drawCalls, setup: () => false }, k);
    },
    drawCalls: () => drawCalls,
    triangles: () => triangles,
  };
  window.threeCrowd = api;
  setCrowd(1);
  frame(0);
  document.documentElement.dataset.state = 'ready';
}

document.documentElement.dataset.state = 'loading';
main().catch((e: unknown) => {
  console.error(e);
  document.documentElement.dataset.state = 'error';
});
