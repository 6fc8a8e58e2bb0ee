import { Document, NodeIO } from '@gltf-transform/core';

/**
 * A small glTF with vertex colours (COLOR_0), built in code for the loader, export and browser tests: a square in
 * the XY plane facing +Z, 2 × 2 units, made of two halves that share no vertex. The left half (x < 0) is
 * coloured LEFT, the right half RIGHT, on a white material without texture, so a renderer that ignored COLOR_0
 * would draw it plain grey-white. Options: the colour accessor's form (VEC3 FLOAT or VEC4 normalised UNSIGNED_BYTE),
 * NORMAL left out (the loader then unwelds it flat), and one morph target (a small push along +Z) so the page's
 * morph paths run over it.
 */

/** Linear RGB of each half. */
export const LEFT = [0.9, 0.05, 0.05] as const;
export const RIGHT = [0.05, 0.1, 0.9] as const;
/** Alpha written with the VEC4 form (the VEC3 form has none: the loader reads 1). */
export const ALPHA = [1, 0.6] as const;

export interface ColourFixtureOptions {
  readonly form?: 'vec3-float' | 'vec4-ubyte';
  readonly normals?: boolean;
  readonly morph?: boolean;
}

/** 8 vertices (4 per half, left half first), 4 triangles; `colours[v]` is vertex v's expected linear RGBA. */
export function colourSquare(): { positions: number[]; colours: number[]; indices: number[] } {
  const positions: number[] = [];
  const colours: number[] = [];
  const halves: [number, readonly number[], number][] = [[-1, LEFT, ALPHA[0]], [0, RIGHT, ALPHA[1]]];
  for (const [x0, rgb, a] of halves) {
    for (const [x, y] of [[x0, -1], [x0 + 1, -1], [x0 + 1, 1], [x0, 1]] as const) {
      positions.push(x, y, 0);
      colours.push(rgb[0]!, rgb[1]!, rgb[2]!, a);
    }
  }
  const indices = [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7];
  return { positions, colours, indices };
}

export function colourDocument(options: ColourFixtureOptions = {}): Document {
  const { form = 'vec3-float', normals = true, morph = false } = options;
  const { positions, colours, indices } = colourSquare();
  const n = positions.length / 3;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: 'SCALAR' | 'VEC3' | 'VEC4', array: Float32Array | Uint8Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  let colour;
  if (form === 'vec3-float') {
    const rgb = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) rgb[v * 3 + k] = colours[v * 4 + k]!;
    colour = accessor('VEC3', rgb);
  } else {
    colour = accessor('VEC4', Uint8Array.from(colours, (c) => Math.round(c * 255))).setNormalized(true);
  }
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array(positions)))
    .setAttribute('COLOR_0', colour)
    .setIndices(accessor('SCALAR', new Uint16Array(indices)))
    .setMaterial(doc.createMaterial('white').setBaseColorFactor([1, 1, 1, 1]).setDoubleSided(true));
  if (normals) {
    const nrm = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) nrm[v * 3 + 2] = 1;
    prim.setAttribute('NORMAL', accessor('VEC3', nrm));
  }
  if (morph) {
    const delta = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) delta[v * 3 + 2] = 0.1;
    prim.addTarget(doc.createPrimitiveTarget('push').setAttribute('POSITION', accessor('VEC3', delta)));
  }
  const mesh = doc.createMesh('square').addPrimitive(prim);
  if (morph) mesh.setWeights([0]);
  const node = doc.createNode('square').setMesh(mesh);
  doc.createScene('scene').addChild(node);
  return doc;
}

/** The fixture as .glb bytes. */
export async function colourGlb(options: ColourFixtureOptions = {}): Promise<Uint8Array> {
  return new NodeIO().writeBinary(colourDocument(options));
}
