import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/model/errors.ts';
import { checkGltf, GLTF_EXTENSIONS_READ } from '../../../src/loaders/gltf/gltf-check.ts';
import { type Fixture, fixture } from './check-fixture.ts';

/** Accessor / bufferView numbers of the fixture. */
const POS = 0, NORMAL = 1, INDICES = 4, IBM = 5, TIMES = 6, ROT = 7, DELTA = 8;

function check(change: (f: Fixture) => void = () => {}, buffers?: (f: Fixture) => (Uint8Array | null)[]): string[] {
  const f = fixture();
  change(f);
  return checkGltf('t.glb', f.json, buffers ? buffers(f) : [f.bin]);
}

function fails(change: (f: Fixture) => void, buffers?: (f: Fixture) => (Uint8Array | null)[]): string {
  try {
    check(change, buffers);
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    return (e as LoadError).message;
  }
  throw new Error('expected a LoadError');
}

function view(f: Fixture, v: number, ctor: typeof Float32Array | typeof Uint16Array = Float32Array): Float32Array | Uint16Array {
  const bv = f.json.bufferViews[v];
  return new ctor(f.bin.buffer as ArrayBuffer, f.bin.byteOffset + bv.byteOffset, bv.byteLength / ctor.BYTES_PER_ELEMENT);
}

describe('checkGltf: a sound file', () => {
  it('passes without warnings', () => {
    expect(check()).toEqual([]);
  });
  it('reads data at any alignment of the bytes it is given', () => {
    const f = fixture();
    const shifted = new Uint8Array(f.bin.length + 1).subarray(1);
    shifted.set(f.bin);
    expect(checkGltf('t.glb', f.json, [shifted])).toEqual([]);
  });
});

describe('checkGltf: buffers and views', () => {
  it('buffer byteLength beyond its data, missing files, no BIN chunk', () => {
    expect(fails((f) => (f.json.buffers[0].byteLength += 100))).toMatch(/^t\.glb: \/buffers\/0\/byteLength: \d+ bytes is more than the \d+ bytes of the GLB BIN chunk$/);
    expect(fails((f) => (f.json.buffers[0].uri = 'geo.bin'), () => [null])).toBe("t.glb: /buffers/0/uri: the external file 'geo.bin' is missing");
    expect(fails(() => {}, () => [null])).toBe('t.glb: /buffers/0: has no uri and the file has no GLB BIN chunk to hold its data');
    expect(fails((f) => (f.json.buffers[0].byteLength = 0))).toMatch(/\/buffers\/0\/byteLength: 0 is outside 1\.\./);
  });
  it('a view outside its buffer, bad strides', () => {
    const msg = fails((f) => (f.json.bufferViews[POS].byteOffset = f.bin.length - 4));
    expect(msg).toMatch(/^t\.glb: \/bufferViews\/0: 36 bytes from offset \d+ run past the end of buffer 0 \(\d+ bytes\)$/);
    for (const stride of [2, 6, 256]) {
      expect(fails((f) => (f.json.bufferViews[POS].byteStride = stride))).toBe(`t.glb: /bufferViews/0/byteStride: ${stride} is not a multiple of 4 in 4..252`);
    }
    expect(fails((f) => (f.json.bufferViews[POS].buffer = 1))).toBe('t.glb: /bufferViews/0/buffer: buffer 1 does not exist (the file has 1 buffers)');
  });
});

describe('checkGltf: accessors', () => {
  it('component type, type, count, normalized, min/max', () => {
    expect(fails((f) => (f.json.accessors[POS].componentType = 5124))).toMatch(/^t\.glb: \/accessors\/0\/componentType: 5124 is not a glTF component type/);
    expect(fails((f) => (f.json.accessors[POS].type = 'VEC5'))).toMatch(/\/accessors\/0\/type: "VEC5" is not an accessor type/);
    expect(fails((f) => (f.json.accessors[POS].count = 0))).toMatch(/\/accessors\/0\/count: 0 is outside 1\.\./);
    expect(fails((f) => (f.json.accessors[POS].normalized = true))).toMatch(/\/accessors\/0\/normalized: is true for FLOAT components/);
    expect(fails((f) => (f.json.accessors[POS].min = [0, 0]))).toBe('t.glb: /accessors/0/min: has 2 values; a VEC3 has 3');
  });
  it('elements that run past the end of their view (count, offset, stride)', () => {
    expect(fails((f) => (f.json.accessors[POS].count = 4))).toBe('t.glb: /accessors/0: 48 bytes from offset 0 run past the end of bufferView 0 (36 bytes)');
    expect(fails((f) => (f.json.accessors[POS].byteOffset = 4))).toBe('t.glb: /accessors/0: 36 bytes from offset 4 run past the end of bufferView 0 (36 bytes)');
    expect(fails((f) => (f.json.bufferViews[POS].byteStride = 16))).toBe('t.glb: /accessors/0: 44 bytes from offset 0 run past the end of bufferView 0 (36 bytes)');
    expect(fails((f) => (f.json.bufferViews[POS].byteStride = 8))).toMatch(/its 12-byte elements are wider than bufferView 0's byteStride 8/);
  });
  it('sparse parts: outside their views, indices at or past the count, not increasing', () => {
    const sparse = (f: Fixture, indices: number[], valuesOffset = 0) => {
      f.json.buffers.push({ byteLength: 8 });
      f.json.bufferViews.push({ buffer: 1, byteLength: 8 });
      f.json.accessors[DELTA].sparse = { count: indices.length, indices: { bufferView: 10, componentType: 5123 }, values: { bufferView: NORMAL, byteOffset: valuesOffset } };
      f.bin = f.bin.slice();
      (f as Fixture & { extra: Uint8Array }).extra = new Uint8Array(new Uint16Array([...indices, 0, 0, 0, 0].slice(0, 4)).buffer);
    };
    const withExtra = (f: Fixture) => [f.bin, (f as Fixture & { extra: Uint8Array }).extra];
    expect(check((f) => sparse(f, [0, 2]), withExtra)).toEqual([]);
    expect(fails((f) => sparse(f, [0, 3]), withExtra)).toBe("t.glb: /accessors/8/sparse/indices: index 1 is 3, not below the accessor's count 3");
    expect(fails((f) => sparse(f, [2, 1]), withExtra)).toMatch(/index 1 is 1, not greater than the one before \(2\)/);
    expect(fails((f) => sparse(f, [0, 1], 20), withExtra)).toBe('t.glb: /accessors/8/sparse/values: 24 bytes from offset 20 run past the end of bufferView 1 (36 bytes)');
    expect(fails((f) => sparse(f, [0, 1, 2, 0]), withExtra)).toMatch(/\/accessors\/8\/sparse\/count: 4 is more than the accessor's count 3/);
  });
  it('hostile counts are refused before anything is allocated from them', () => {
    expect(fails((f) => f.json.accessors.push({ componentType: 5126, type: 'MAT4', count: 2 ** 40 }))).toMatch(/^t\.glb: \/accessors\/10\/count: 1099511627776 elements without a bufferView/);
    expect(fails((f) => (f.json.bufferViews[POS].byteLength = 2 ** 40))).toMatch(/\/bufferViews\/0: 1099511627776 bytes from offset 0 run past the end of buffer 0/);
    expect(fails((f) => (f.json.accessors[POS].count = 2 ** 53))).toMatch(/\/accessors\/0\/count: 9007199254740992 is outside 1\.\./);
  });
});

describe('checkGltf: references and the node forest', () => {
  it('indices into every kind of object', () => {
    expect(fails((f) => (f.json.meshes[0].primitives[0].indices = 12))).toBe('t.glb: /meshes/0/primitives/0/indices: accessor 12 does not exist (the file has 10 accessors)');
    expect(fails((f) => (f.json.meshes[0].primitives[0].attributes.NORMAL = -1))).toMatch(/\/attributes\/NORMAL: accessor -1 does not exist/);
    expect(fails((f) => (f.json.nodes[2].mesh = 3))).toBe('t.glb: /nodes/2/mesh: mesh 3 does not exist (the file has 1 meshes)');
    expect(fails((f) => (f.json.nodes[2].skin = 1))).toMatch(/\/nodes\/2\/skin: skin 1 does not exist/);
    expect(fails((f) => (f.json.nodes[2].camera = 0))).toMatch(/\/nodes\/2\/camera: camera 0 does not exist \(the file has 0 cameras\)/);
    expect(fails((f) => (f.json.meshes[0].primitives[0].material = 1))).toMatch(/\/material: material 1 does not exist/);
    expect(fails((f) => (f.json.materials[0].normalTexture = { index: 0 }))).toMatch(/\/materials\/0\/normalTexture\/index: texture 0 does not exist/);
    expect(fails((f) => (f.json.textures = [{ source: 2, sampler: 0 }]))).toMatch(/\/textures\/0\/source: image 2 does not exist/);
    expect(fails((f) => (f.json.textures = [{ sampler: 0 }]))).toMatch(/\/textures\/0\/sampler: sampler 0 does not exist/);
    expect(fails((f) => (f.json.images = [{ bufferView: 11 }]))).toMatch(/\/images\/0\/bufferView: bufferView 11 does not exist/);
    expect(fails((f) => (f.json.scenes[0].nodes = [5]))).toMatch(/\/scenes\/0\/nodes\/0: node 5 does not exist/);
    expect(fails((f) => (f.json.nodes[0].children = ['1']))).toMatch(/\/nodes\/0\/children\/0: is '1', not an index into nodes/);
  });
  it('names that are not strings', () => {
    expect(fails((f) => (f.json.animations[0].name = [1, 2]))).toBe('t.glb: /animations/0/name: is an array, not a string');
    expect(fails((f) => (f.json.meshes[0].extras = { targetNames: [{}] }))).toBe('t.glb: /meshes/0/extras/targetNames/0: is not a string');
  });
  it('more primitives in all than the limit', () => {
    expect(fails((f) => (f.json.meshes[0].primitives = Array.from({ length: 8193 }, () => f.json.meshes[0].primitives[0])))).toMatch(
      /^t\.glb: \/meshes\/0\/primitives: the meshes up to this one hold 8193 primitives, more than skinlab's limit of 8192 in all$/,
    );
  });
  it('a node with two parents, a node that is its own child, a cycle, a child listed as a scene root', () => {
    expect(fails((f) => (f.json.nodes[2].children = [1]))).toBe('t.glb: /nodes/2/children/0: node 1 is already a child of node 0; a node has one parent');
    expect(fails((f) => (f.json.nodes[1].children = [1]))).toMatch(/\/nodes\/1\/children\/0: node 1 is its own child/);
    expect(fails((f) => (f.json.nodes[1].children = [0]))).toMatch(/\/nodes\/\d: node \d is its own ancestor \(the children form a cycle\)/);
    expect(fails((f) => (f.json.scenes[0].nodes = [0, 1]))).toMatch(/\/scenes\/0\/nodes\/1: node 1 is a child of node 0, not a root/);
  });
  it('more nodes in the scene than a skeleton holds', () => {
    const chain = (f: Fixture, n: number) => {
      for (let i = 0; i < n; i++) f.json.nodes.push(i + 1 < n ? { children: [f.json.nodes.length + 1] } : {});
      f.json.nodes[1].children = [3];
    };
    expect(fails((f) => chain(f, 32767))).toBe("t.glb: /scenes/0: more than 32767 nodes in the scene; skinlab's skeletons hold at most 32767");
    expect(check((f) => chain(f, 32000))).toEqual([]);
  });
  it('skins: joints out of range or repeated, inverse bind matrices too few or not MAT4', () => {
    expect(fails((f) => (f.json.skins[0].joints = [0, 9]))).toBe('t.glb: /skins/0/joints/1: node 9 does not exist (the file has 3 nodes)');
    expect(fails((f) => (f.json.skins[0].joints = [0, 0]))).toMatch(/\/skins\/0\/joints\/1: node 0 is listed twice/);
    expect(fails((f) => (f.json.skins[0].joints = [0, 1, 2]))).toMatch(/\/skins\/0\/inverseBindMatrices: accessor 5 has 2 matrices for 3 joints/);
    expect(fails((f) => (f.json.skins[0].inverseBindMatrices = POS))).toMatch(/accessor 0 is VEC3 of component type 5126, not FLOAT MAT4/);
  });
});

describe('checkGltf: animations', () => {
  it('channels: missing nodes, bad paths, missing samplers', () => {
    expect(fails((f) => (f.json.animations[0].channels[0].target.node = 7))).toBe('t.glb: /animations/0/channels/0/target/node: node 7 does not exist (the file has 3 nodes)');
    expect(fails((f) => (f.json.animations[0].channels[0].target.path = 'color'))).toMatch(/\/channels\/0\/target\/path: "color" is not translation, rotation, scale or weights/);
    expect(fails((f) => (f.json.animations[0].channels[0].sampler = 2))).toBe('t.glb: /animations/0/channels/0/sampler: sampler 2 does not exist (the animation has 2 samplers)');
    expect(fails((f) => (f.json.animations[0].samplers[0].interpolation = 'SMOOTH'))).toMatch(/\/samplers\/0\/interpolation: "SMOOTH" is not LINEAR, STEP or CUBICSPLINE/);
    expect(fails((f) => (f.json.animations[0].channels[1].target.node = 1))).toMatch(/node 1 has no mesh with morph targets to weigh/);
  });
  it('two channels on one target', () => {
    expect(fails((f) => f.json.animations[0].channels.push({ sampler: 0, target: { node: 1, path: 'rotation' } }))).toBe(
      't.glb: /animations/0/channels/2/target: channel 0 already animates the rotation of node 1; one channel per target',
    );
  });
  it('output counts: one per key and target for LINEAR/STEP, three for CUBICSPLINE', () => {
    expect(fails((f) => (f.json.accessors[ROT].count = 1))).toBe('t.glb: /animations/0/samplers/0: 2 key times need 2 outputs for rotation (LINEAR), accessor 7 has 1');
    expect(fails((f) => (f.json.animations[0].samplers[0].interpolation = 'CUBICSPLINE'))).toMatch(/2 key times need 6 outputs for rotation \(CUBICSPLINE\), accessor 7 has 2/);
    expect(fails((f) => f.json.meshes[0].primitives[0].targets.push({ POSITION: DELTA }))).toMatch(/\/meshes\/0\/weights: has 1 weights for 2 morph targets/);
    expect(
      fails((f) => {
        f.json.meshes[0].primitives[0].targets.push({ POSITION: DELTA });
        f.json.meshes[0].weights = [0, 0];
      }),
    ).toMatch(/\/animations\/0\/samplers\/1: 2 key times need 4 outputs for weights \(STEP\), accessor 9 has 2/);
    expect(fails((f) => (f.json.animations[0].samplers[0].output = TIMES))).toMatch(/accessor 6 holds SCALAR values; rotation needs VEC4/);
  });
  it('key times that go back, are negative or not finite', () => {
    expect(fails((f) => view(f, TIMES).set([1, 0.5]))).toBe('t.glb: /accessors/6: key time 1 (0.5) is earlier than key 0 (1); times must ascend');
    expect(fails((f) => view(f, TIMES).set([-1, 0]))).toMatch(/\/accessors\/6: key time 0 is -1; times may not be negative/);
    expect(fails((f) => view(f, TIMES).set([0, NaN]))).toMatch(/\/accessors\/6: key time 1 is NaN/);
    expect(check((f) => view(f, TIMES).set([1, 1]))).toEqual(['/accessors/6: 1 key time(s) repeat the one before them']);
  });
});

describe('checkGltf: primitive data', () => {
  it('index values at or past the vertex count', () => {
    expect(fails((f) => (view(f, INDICES, Uint16Array)[2] = 7))).toBe('t.glb: /meshes/0/primitives/0/indices: index 2 of accessor 4 is 7, but POSITION has only 3 vertices');
    expect(fails((f) => (f.json.meshes[0].primitives[0].indices = TIMES))).toMatch(/indices must be SCALAR UNSIGNED_BYTE\/SHORT\/INT/);
  });
  it('more morph targets in all than the limit', () => {
    const many = (f: Fixture, n: number) => {
      const prim = f.json.meshes[0].primitives[0];
      prim.targets = Array.from({ length: n }, () => ({ POSITION: DELTA }));
      f.json.meshes[0].weights = prim.targets.map(() => 0);
      f.json.animations[0].channels.pop();
    };
    expect(fails((f) => many(f, 65537))).toBe("t.glb: /meshes/0: the primitives up to this mesh hold 65537 morph targets, more than skinlab's limit of 65536 in all");
    expect(check((f) => many(f, 1000))).toEqual([]);
  });
  it('attribute counts that differ within a primitive or its targets', () => {
    expect(fails((f) => (f.json.accessors[NORMAL].count = 2))).toBe('t.glb: /meshes/0/primitives/0/attributes/NORMAL: accessor 1 has 2 elements but POSITION has 3; a primitive\'s attributes agree');
    expect(fails((f) => (f.json.meshes[0].primitives[0].targets[0].POSITION = IBM))).toMatch(/\/targets\/0\/POSITION: accessor 5 has 2 elements but POSITION has 3/);
  });
  it('NaN and infinities in positions, normals, inverse bind matrices, animation outputs and morph deltas', () => {
    expect(fails((f) => (view(f, POS)[4] = NaN))).toBe('t.glb: /accessors/0: element 1 holds NaN (POSITION); only finite numbers are allowed');
    expect(fails((f) => (view(f, NORMAL)[8] = Infinity))).toMatch(/\/accessors\/1: element 2 holds Infinity \(NORMAL\)/);
    expect(fails((f) => (view(f, IBM)[17] = -Infinity))).toMatch(/\/accessors\/5: element 1 holds -Infinity \(inverse bind matrix\)/);
    expect(fails((f) => (view(f, ROT)[0] = NaN))).toMatch(/\/accessors\/7: element 0 holds NaN \(animation output\)/);
    expect(fails((f) => (view(f, DELTA)[3] = NaN))).toMatch(/\/accessors\/8: element 1 holds NaN \(morph target POSITION delta\)/);
  });
});

describe('checkGltf: extensions', () => {
  it('refuses a required extension it does not read, by name', () => {
    expect(fails((f) => (f.json.extensionsRequired = ['KHR_materials_variants']))).toMatch(
      /^t\.glb: \/extensionsRequired\/0: the file requires the extension KHR_materials_variants, which skinlab does not support/,
    );
  });
  it('accepts the extensions it reads, KTX2 textures included; warns about used extensions it ignores', () => {
    expect(check((f) => (f.json.extensionsRequired = f.json.extensionsUsed = [...GLTF_EXTENSIONS_READ]))).toEqual([]);
    expect(check((f) => (f.json.extensionsRequired = f.json.extensionsUsed = ['KHR_texture_basisu']))).toEqual([]);
    expect(check((f) => (f.json.extensionsUsed = ['KHR_materials_unlit', 'KHR_lights_punctual', 'KHR_mesh_quantization']))).toEqual([
      '/extensionsUsed: extensions not read, drawn without: KHR_materials_unlit, KHR_lights_punctual',
    ]);
  });
});
