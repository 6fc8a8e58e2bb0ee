import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { shadowMapSize } from '../render/shadow-size.ts';

/**
 * The time-to-first-frame benchmark's peer (src/bench/ttff-bench.ts): a glTF opened the way a three.js app
 * opens one — fetch, GLTFLoader (with DRACOLoader and the meshopt decoder set, used only by files that need
 * them), the scene added under a hemisphere and a key light, renderer.compile(), one render, gl.finish() —
 * timed on the page's clock (performance.now(): ms since navigation started), as the app's
 * stats().firstFrame.pageMs is. The canvas is the page's size, antialiased like the app's context.
 *
 * Query: `model` (URL of the .glb/.gltf, relative to this page), `w`, `h` (canvas size, default 800x600), `stage=1`
 * (addStage: the floor, grid and shadow that skinlab's first frame draws as well).
 * window.threeGltf: a promise of { pageMs (end of the finished first frame), startMs (when the fetch began),
 * fetchMs, parseMs (GLTFLoader.parseAsync: decoders, textures decoded), compileMs (renderer.compile), drawMs
 * (render + finish: uploads and the draw), error? }.
 */

export interface ThreeGltfFirstFrame {
  pageMs: number;
  startMs: number;
  fetchMs: number;
  parseMs: number;
  compileMs: number;
  drawMs: number;
  triangles: number;
  error?: string;
}

declare global {
  interface Window {
    threeGltf: Promise<ThreeGltfFirstFrame>;
  }
}

async function main(): Promise<ThreeGltfFirstFrame> {
  const params = new URLSearchParams(location.search);
  const model = params.get('model');
  if (!model) throw new Error('three-gltf: no model= given');
  const canvas = document.getElementById('view') as HTMLCanvasElement;
  const size = (key: string, fallback: number): number => {
    const v = Number(params.get(key));
    return Number.isInteger(v) && v > 0 && v <= 8192 ? v : fallback;
  };
  canvas.width = size('w', canvas.width);
  canvas.height = size('h', canvas.height);
  canvas.style.width = `${canvas.width}px`;
  canvas.style.height = `${canvas.height}px`;

  const startMs = performance.now();
  const url = new URL(model, document.baseURI);
  const buffer = await (await fetch(url)).arrayBuffer();
  const fetched = performance.now();

  const loader = new GLTFLoader();
  loader.setDRACOLoader(new DRACOLoader());
  loader.setMeshoptDecoder(MeshoptDecoder);
  const base = url.href.slice(0, url.href.lastIndexOf('/') + 1);
  const gltf = await loader.parseAsync(buffer, base);
  const parsed = performance.now();

  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(1);
  renderer.setSize(canvas.width, canvas.height, false);
  renderer.setClearColor(new THREE.Color(0.105, 0.115, 0.135), 1);
  const world = new THREE.Scene();
  world.add(new THREE.HemisphereLight(0xbfc8d6, 0x30343c, 0.9));
  const key = new THREE.DirectionalLight(0xffffff, 2.2);
  key.position.set(-0.6, 0.7, 0.45);
  world.add(key);
  world.add(gltf.scene);
  // Framed as a viewer frames a model: the bounding box's centre, from far enough to see all of it.
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.max(1e-3, box.getSize(new THREE.Vector3()).length() / 2);
  const camera = new THREE.PerspectiveCamera(40, canvas.width / canvas.height, radius / 100, radius * 100);
  camera.position.set(centre.x, centre.y + radius * 0.3, centre.z + radius * 2.8);
  camera.lookAt(centre);
  if (params.get('stage') === '1') addStage(world, gltf.scene, key, box, renderer);
  // The first animation frame's pose, as a viewer that plays the first clip draws it.
  const mixer = new THREE.AnimationMixer(gltf.scene);
  if (gltf.animations[0]) mixer.clipAction(gltf.animations[0]).play();
  mixer.update(0);
  renderer.compile(world, camera);
  const compiled = performance.now();
  renderer.render(world, camera);
  renderer.getContext().finish();
  const done = performance.now();
  return {
    pageMs: done,
    startMs,
    fetchMs: fetched - startMs,
    parseMs: parsed - fetched,
    compileMs: compiled - parsed,
    drawMs: done - compiled,
    triangles: renderer.info.render.triangles,
  };
}

/**
 * `stage=1`: the stage skinlab's first frame draws under the model, set up as three.js's skinning examples set it
 * up: the key light casts a PCF shadow map fitted to the model, as many texels a side as skinlab's for this canvas
 * (render/shadow-size.ts: 1024² up to 1024 pixels), the model casts it, and a shadow catcher
 * (ShadowMaterial: the floor darkened where shadowed, as skinlab's floor is) at the model's lowest point receives
 * it, with a grid on it.
 */
function addStage(world: THREE.Scene, model: THREE.Object3D, key: THREE.DirectionalLight, box: THREE.Box3, renderer: THREE.WebGLRenderer): void {
  renderer.shadowMap.enabled = true;
  const size = box.getSize(new THREE.Vector3());
  const centre = box.getCenter(new THREE.Vector3());
  const extent = Math.max(size.x, size.y, size.z);
  key.castShadow = true;
  const side = shadowMapSize(renderer.domElement.width, renderer.domElement.height, renderer.capabilities.maxTextureSize);
  key.shadow.mapSize.set(side, side);
  key.position.set(centre.x - 0.6 * extent * 2, centre.y + 0.7 * extent * 2, centre.z + 0.45 * extent * 2);
  key.target.position.copy(centre);
  world.add(key.target);
  const cam = key.shadow.camera;
  cam.left = cam.bottom = -extent;
  cam.right = cam.top = extent;
  cam.near = extent * 0.01;
  cam.far = extent * 5;
  cam.updateProjectionMatrix();
  model.traverse((o) => {
    if ((o as THREE.Mesh).isMesh) o.castShadow = true;
  });
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(extent * 4, extent * 4), new THREE.ShadowMaterial({ opacity: 0.35 }));
  floor.rotation.x = -Math.PI / 2;
  floor.position.set(centre.x, box.min.y, centre.z);
  floor.receiveShadow = true;
  world.add(floor);
  const grid = new THREE.GridHelper(extent * 4, 20, 0x5a6070, 0x3a404c);
  grid.position.set(centre.x, box.min.y + extent * 1e-3, centre.z);
  world.add(grid);
}

window.threeGltf = main().catch((e: unknown) => ({ pageMs: NaN, startMs: NaN, fetchMs: NaN, parseMs: NaN, compileMs: NaN, drawMs: NaN, triangles: 0, error: (e as Error)?.message ?? String(e) }));
