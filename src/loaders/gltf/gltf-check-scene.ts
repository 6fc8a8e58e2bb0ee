import type { Layout } from './gltf-check-buffers.ts';
import { checkFinite, checkIndexValues, checkSparseIndices } from './gltf-check-data.ts';
import { CheckContext, isObj, type Obj } from './gltf-check-util.ts';

/**
 * Checks the scene graph and what hangs off it: every index into nodes, meshes, skins, accessors,
 * materials, textures, images, samplers and cameras is in range; the node hierarchy is a forest (no cycles,
 * one parent each); mesh primitives agree on their counts and index in range; skins name existing joints
 * with finite inverse bind matrices.
 */

/** Most nodes a scene may hold (skeleton parents are Int16). */
export const MAX_SCENE_NODES = 32767;
/** Most primitives all meshes together may hold; each becomes at least one draw. */
export const MAX_PRIMITIVES = 8192;
/** Most scenes a file may hold; real files have one or a few. */
export const MAX_SCENES = 1024;
/** Most morph targets all primitives together may hold; Dawn, the largest real rig, has 4 × 50. */
export const MAX_PRIMITIVE_TARGETS = 65536;

const TEXTURE_SLOTS = ['baseColorTexture', 'metallicRoughnessTexture'];
const MATERIAL_TEXTURES = ['normalTexture', 'occlusionTexture', 'emissiveTexture'];

/** A node's transform fields and their lengths. */
const TRANSFORM_FIELDS = ['translation', 'rotation', 'scale', 'matrix'];
const TRANSFORM_LENGTHS = [3, 4, 3, 16];

export function checkNodes(ctx: CheckContext): void {
  const nodes = ctx.top('nodes');
  const parent = new Int32Array(nodes.length).fill(-1);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const ptr = `/nodes/${i}`;
    ctx.ref(n, 'mesh', ptr, 'meshes');
    ctx.ref(n, 'skin', ptr, 'skins');
    ctx.ref(n, 'camera', ptr, 'cameras');
    for (let f = 0; f < TRANSFORM_FIELDS.length; f++) {
      const key = TRANSFORM_FIELDS[f]!;
      const len = TRANSFORM_LENGTHS[f]!;
      const v = ctx.arr(n, key, ptr);
      if (v === undefined) continue;
      if (v.length !== len) ctx.fail(`${ptr}/${key}`, `has ${v.length} numbers, not ${len}`);
      for (let k = 0; k < len; k++) {
        if (typeof v[k] !== 'number' || !Number.isFinite(v[k])) ctx.fail(`${ptr}/${key}/${k}`, 'is not a finite number');
      }
    }
    const weights = ctx.arr(n, 'weights', ptr);
    if (weights) for (let k = 0; k < weights.length; k++) if (typeof weights[k] !== 'number') ctx.fail(`${ptr}/weights/${k}`, 'is not a number');
    const children = ctx.arr(n, 'children', ptr) ?? [];
    for (let k = 0; k < children.length; k++) {
      const c = ctx.index(children[k], `${ptr}/children/${k}`, 'nodes', nodes.length);
      if (c === i) ctx.fail(`${ptr}/children/${k}`, `node ${i} is its own child`);
      if (parent[c] !== -1) ctx.fail(`${ptr}/children/${k}`, `node ${c} is already a child of node ${parent[c]}; a node has one parent`);
      parent[c] = i;
    }
  }
  // With one parent each, a node is in a cycle exactly when walking up never reaches a root.
  const state = new Uint8Array(nodes.length); // 0 unseen, 1 on the current walk, 2 reaches a root
  for (let i = 0; i < nodes.length; i++) {
    let n = i;
    while (n !== -1 && state[n] === 0) {
      state[n] = 1;
      n = parent[n]!;
    }
    if (n !== -1 && state[n] === 1) ctx.fail(`/nodes/${n}`, `node ${n} is its own ancestor (the children form a cycle)`);
    for (let m = i; m !== -1 && state[m] === 1; m = parent[m]!) state[m] = 2;
  }
  const scenes = ctx.top('scenes');
  if (scenes.length > MAX_SCENES) ctx.fail('/scenes', `${scenes.length} scenes, more than skinlab's limit of ${MAX_SCENES}`);
  const seen = new Int32Array(nodes.length).fill(-1);
  for (let s = 0; s < scenes.length; s++) {
    const scene = scenes[s]!;
    const list = ctx.arr(scene, 'nodes', `/scenes/${s}`) ?? [];
    for (let k = 0; k < list.length; k++) {
      const n = ctx.index(list[k], `/scenes/${s}/nodes/${k}`, 'nodes', nodes.length);
      if (parent[n] !== -1) ctx.fail(`/scenes/${s}/nodes/${k}`, `node ${n} is a child of node ${parent[n]}, not a root`);
      if (seen[n] === s) ctx.fail(`/scenes/${s}/nodes/${k}`, `node ${n} is listed twice`);
      seen[n] = s;
    }
  }
  const sceneIndex = ctx.ref(ctx.json, 'scene', '', 'scenes') ?? 0;
  if (nodes.length > MAX_SCENE_NODES) {
    // The forest is sound now: count the nodes the skeleton would hold (the default scene's, else all).
    const roots = scenes.length > 0 ? ((scenes[sceneIndex]!['nodes'] as number[] | undefined) ?? []) : [...parent.keys()].filter((n) => parent[n] === -1);
    const stack = [...roots];
    let count = 0;
    while (stack.length > 0 && count <= MAX_SCENE_NODES) {
      const n = stack.pop()!;
      count++;
      const children = nodes[n]!['children'];
      if (Array.isArray(children)) for (const c of children) stack.push(c as number);
    }
    if (count > MAX_SCENE_NODES) {
      ctx.fail(scenes.length > 0 ? `/scenes/${sceneIndex}` : '/nodes', `more than ${MAX_SCENE_NODES} nodes in the scene; skinlab's skeletons hold at most ${MAX_SCENE_NODES}`);
    }
  }
}

function checkTextureInfo(ctx: CheckContext, o: Obj, key: string, ptr: string): void {
  const info = ctx.obj(o, key, ptr);
  if (!info) return;
  const t = ctx.ref(info, 'index', `${ptr}/${key}`, 'textures');
  if (t === undefined) ctx.fail(`${ptr}/${key}/index`, 'is missing');
  ctx.int(info, 'texCoord', `${ptr}/${key}`, 0, 31);
}

export function checkMaterials(ctx: CheckContext): void {
  const materialDefs = ctx.top('materials');
  for (let i = 0; i < materialDefs.length; i++) {
    const m = materialDefs[i]!;
    const ptr = `/materials/${i}`;
    const pbr = ctx.obj(m, 'pbrMetallicRoughness', ptr);
    if (pbr) for (const key of TEXTURE_SLOTS) checkTextureInfo(ctx, pbr, key, `${ptr}/pbrMetallicRoughness`);
    for (const key of MATERIAL_TEXTURES) checkTextureInfo(ctx, m, key, ptr);
    const mode = m['alphaMode'];
    if (mode !== undefined && mode !== 'OPAQUE' && mode !== 'MASK' && mode !== 'BLEND') {
      ctx.fail(`${ptr}/alphaMode`, `${JSON.stringify(mode)?.slice(0, 40)} is not OPAQUE, MASK or BLEND`);
    }
  }
  const textureDefs = ctx.top('textures');
  for (let i = 0; i < textureDefs.length; i++) {
    const t = textureDefs[i]!;
    const ptr = `/textures/${i}`;
    ctx.ref(t, 'source', ptr, 'images');
    ctx.ref(t, 'sampler', ptr, 'samplers');
    const ext = ctx.obj(t, 'extensions', ptr);
    if (ext) {
      for (const [name, e] of Object.entries(ext)) {
        if (isObj(e) && e['source'] !== undefined) ctx.ref(e, 'source', `${ptr}/extensions/${name}`, 'images');
      }
    }
  }
  const imageDefs = ctx.top('images');
  for (let i = 0; i < imageDefs.length; i++) {
    const img = imageDefs[i]!;
    const ptr = `/images/${i}`;
    const view = ctx.ref(img, 'bufferView', ptr, 'bufferViews');
    const uri = ctx.str(img, 'uri', ptr);
    if (view !== undefined && uri !== undefined) ctx.fail(ptr, 'has both a uri and a bufferView');
  }
  ctx.top('samplers');
  ctx.top('cameras');
}

export function checkMeshes(ctx: CheckContext, layout: Layout): void {
  const acc = layout.accessors;
  const accessorCount = acc.length;
  const finite = new Set<number>();
  const once = (index: number, what: string): void => {
    if (finite.has(index)) return;
    finite.add(index);
    checkSparseIndices(ctx, acc, index);
    if (checkFinite(ctx, acc, index, what)) layout.checked[index] = 1;
  };
  let allTargets = 0;
  let allPrimitives = 0;
  const meshDefs = ctx.top('meshes');
  for (let m = 0; m < meshDefs.length; m++) {
    const mesh = meshDefs[m]!;
    const mptr = `/meshes/${m}`;
    const prims = ctx.arr(mesh, 'primitives', mptr);
    if (!prims || prims.length === 0) ctx.fail(`${mptr}/primitives`, 'is missing or empty; a mesh has at least one primitive');
    allPrimitives += prims.length;
    if (allPrimitives > MAX_PRIMITIVES) ctx.fail(`${mptr}/primitives`, `the meshes up to this one hold ${allPrimitives} primitives, more than skinlab's limit of ${MAX_PRIMITIVES} in all`);
    for (const prim of prims) {
      const targets = isObj(prim) ? prim['targets'] : undefined;
      if (Array.isArray(targets)) allTargets += targets.length;
    }
    if (allTargets > MAX_PRIMITIVE_TARGETS) {
      ctx.fail(mptr, `the primitives up to this mesh hold ${allTargets} morph targets, more than skinlab's limit of ${MAX_PRIMITIVE_TARGETS} in all`);
    }
    let targetCount = -1;
    for (let p = 0; p < prims.length; p++) {
      const ptr = `${mptr}/primitives/${p}`;
      const prim = prims[p];
      if (!isObj(prim)) ctx.fail(ptr, 'is not an object');
      const attrs = ctx.obj(prim, 'attributes', ptr);
      if (!attrs) ctx.fail(`${ptr}/attributes`, 'is missing');
      const draco = isObj(prim['extensions']) && isObj(prim['extensions']['KHR_draco_mesh_compression']);
      let count = -1;
      let countFrom = '';
      for (const [name, v] of Object.entries(attrs)) {
        const a = ctx.index(v, `${ptr}/attributes/${name}`, 'accessors', accessorCount);
        if (count < 0) {
          count = acc[a]!.count;
          countFrom = name;
        } else if (acc[a]!.count !== count) {
          ctx.fail(`${ptr}/attributes/${name}`, `accessor ${a} has ${acc[a]!.count} elements but ${countFrom} has ${count}; a primitive's attributes agree`);
        }
        if (name === 'POSITION' || name === 'NORMAL') once(a, name);
        else checkSparseIndices(ctx, acc, a);
      }
      const position = attrs['POSITION'];
      ctx.int(prim, 'mode', ptr, 0, 6);
      ctx.ref(prim, 'material', ptr, 'materials');
      const indices = ctx.ref(prim, 'indices', ptr, 'accessors');
      if (indices !== undefined && typeof position === 'number' && !draco) {
        checkIndexValues(ctx, acc, indices, acc[position]!.count, `${ptr}/indices`);
      }
      const targets = ctx.arr(prim, 'targets', ptr) ?? [];
      if (targetCount >= 0 && targets.length !== targetCount) {
        ctx.fail(`${ptr}/targets`, `has ${targets.length} morph targets but primitive 0 has ${targetCount}; every primitive of a mesh has the same targets`);
      }
      targetCount = targets.length;
      for (let t = 0; t < targets.length; t++) {
        const target = targets[t];
        const tptr = `${ptr}/targets/${t}`;
        if (!isObj(target)) ctx.fail(tptr, 'is not an object');
        for (const [name, v] of Object.entries(target)) {
          const a = ctx.index(v, `${tptr}/${name}`, 'accessors', accessorCount);
          if (count >= 0 && acc[a]!.count !== count) {
            ctx.fail(`${tptr}/${name}`, `accessor ${a} has ${acc[a]!.count} elements but ${countFrom} has ${count}`);
          }
          once(a, `morph target ${name} delta`);
        }
      }
    }
    const weights = ctx.arr(mesh, 'weights', mptr);
    if (weights) {
      if (weights.length !== targetCount) ctx.fail(`${mptr}/weights`, `has ${weights.length} weights for ${targetCount} morph targets`);
      for (let k = 0; k < weights.length; k++) if (typeof weights[k] !== 'number') ctx.fail(`${mptr}/weights/${k}`, 'is not a number');
    }
  }
}

export function checkSkins(ctx: CheckContext, layout: Layout): void {
  const nodeCount = ctx.count('nodes');
  const skinDefs = ctx.top('skins');
  for (let s = 0; s < skinDefs.length; s++) {
    const skin = skinDefs[s]!;
    const ptr = `/skins/${s}`;
    const joints = ctx.arr(skin, 'joints', ptr);
    if (!joints || joints.length === 0) ctx.fail(`${ptr}/joints`, 'is missing or empty');
    const seen = new Set<number>();
    for (let k = 0; k < joints.length; k++) {
      const j = ctx.index(joints[k], `${ptr}/joints/${k}`, 'nodes', nodeCount);
      if (seen.has(j)) ctx.fail(`${ptr}/joints/${k}`, `node ${j} is listed twice`);
      seen.add(j);
    }
    ctx.ref(skin, 'skeleton', ptr, 'nodes');
    const ibm = ctx.ref(skin, 'inverseBindMatrices', ptr, 'accessors');
    if (ibm !== undefined) {
      const a = layout.accessors[ibm]!;
      if (a.type !== 'MAT4' || a.componentType !== 5126) {
        ctx.fail(`${ptr}/inverseBindMatrices`, `accessor ${ibm} is ${a.type} of component type ${a.componentType}, not FLOAT MAT4`);
      }
      if (a.count < joints.length) {
        ctx.fail(`${ptr}/inverseBindMatrices`, `accessor ${ibm} has ${a.count} matrices for ${joints.length} joints`);
      }
      checkSparseIndices(ctx, layout.accessors, ibm);
      if (checkFinite(ctx, layout.accessors, ibm, 'inverse bind matrix')) layout.checked[ibm] = 1;
    }
  }
}
