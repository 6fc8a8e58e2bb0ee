/**
 * A small, valid glTF built in code for the check and container tests: one skinned, morphed triangle with
 * two joints, an animation of rotation and morph weights, and a GLB writer. Every call returns fresh objects,
 * so a test may damage them freely.
 */

export interface Fixture {
  json: Record<string, any>;
  bin: Uint8Array;
}

export function fixture(): Fixture {
  const views: Record<string, any>[] = [];
  let offset = 0;
  const chunks: Uint8Array[] = [];
  const add = (data: Uint8Array): number => {
    const padded = new Uint8Array(Math.ceil(data.length / 4) * 4);
    padded.set(data);
    views.push({ buffer: 0, byteOffset: offset, byteLength: data.length });
    chunks.push(padded);
    offset += padded.length;
    return views.length - 1;
  };
  const f32 = (v: number[]) => new Uint8Array(new Float32Array(v).buffer);
  const u16 = (v: number[]) => new Uint8Array(new Uint16Array(v).buffer);
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const vPos = add(f32([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const vNorm = add(f32([0, 0, 1, 0, 0, 1, 0, 0, 1]));
  const vJoints = add(new Uint8Array([0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0]));
  const vWeights = add(f32([0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0]));
  const vIndices = add(u16([0, 1, 2]));
  const vIbm = add(f32([...identity, ...identity]));
  const vTimes = add(f32([0, 1]));
  const vRot = add(f32([0, 0, 0, 1, 0, 0, 0.7071068, 0.7071068]));
  const vDelta = add(f32([0, 0, 0.1, 0, 0, 0.1, 0, 0, 0.1]));
  const vMorphW = add(f32([0, 1]));
  const bin = new Uint8Array(offset);
  let o = 0;
  for (const c of chunks) {
    bin.set(c, o);
    o += c.length;
  }
  const json = {
    asset: { version: '2.0', generator: 'skinlab test fixture' },
    scene: 0,
    scenes: [{ nodes: [0, 2] }],
    nodes: [
      { name: 'root', children: [1] },
      { name: 'tip', translation: [0, 1, 0] },
      { name: 'mesh', mesh: 0, skin: 0 },
    ],
    meshes: [
      {
        primitives: [
          {
            attributes: { POSITION: 0, NORMAL: 1, JOINTS_0: 2, WEIGHTS_0: 3 },
            indices: 4,
            material: 0,
            targets: [{ POSITION: 8 }],
          },
        ],
        weights: [0],
      },
    ],
    materials: [{ pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1] } }],
    skins: [{ joints: [0, 1], inverseBindMatrices: 5 }],
    accessors: [
      { bufferView: vPos, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: vNorm, componentType: 5126, count: 3, type: 'VEC3' },
      { bufferView: vJoints, componentType: 5121, count: 3, type: 'VEC4' },
      { bufferView: vWeights, componentType: 5126, count: 3, type: 'VEC4' },
      { bufferView: vIndices, componentType: 5123, count: 3, type: 'SCALAR' },
      { bufferView: vIbm, componentType: 5126, count: 2, type: 'MAT4' },
      { bufferView: vTimes, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: vRot, componentType: 5126, count: 2, type: 'VEC4' },
      { bufferView: vDelta, componentType: 5126, count: 3, type: 'VEC3' },
      { bufferView: vMorphW, componentType: 5126, count: 2, type: 'SCALAR' },
    ],
    bufferViews: views,
    buffers: [{ byteLength: bin.length }],
    animations: [
      {
        name: 'bend',
        samplers: [
          { input: 6, output: 7 },
          { input: 6, output: 9, interpolation: 'STEP' },
        ],
        channels: [
          { sampler: 0, target: { node: 1, path: 'rotation' } },
          { sampler: 1, target: { node: 2, path: 'weights' } },
        ],
      },
    ],
  };
  return { json, bin };
}

/** A GLB of `json` and an optional BIN chunk; `extra` chunks go between them. */
export function toGlb(json: object, bin: Uint8Array | null, extra: { type: number; data: Uint8Array }[] = []): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = Math.ceil(text.length / 4) * 4;
  const chunks: { type: number; data: Uint8Array }[] = [{ type: 0x4e4f534a, data: padTo4(text, 0x20, jsonLen) }, ...extra];
  if (bin) chunks.push({ type: 0x004e4942, data: padTo4(bin, 0, Math.ceil(bin.length / 4) * 4) });
  const total = 12 + chunks.reduce((s, c) => s + 8 + c.data.length, 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  let o = 12;
  for (const c of chunks) {
    dv.setUint32(o, c.data.length, true);
    dv.setUint32(o + 4, c.type, true);
    out.set(c.data, o + 8);
    o += 8 + c.data.length;
  }
  return out;
}

function padTo4(data: Uint8Array, fill: number, length: number): Uint8Array {
  const out = new Uint8Array(length).fill(fill);
  out.set(data);
  return out;
}

export function f32Bytes(values: number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}
