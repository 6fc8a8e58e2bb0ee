import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/loaders/load-model.ts';
import { srgbToLinear } from '../../src/loaders/x/scene-mesh-colours.ts';
import type { SkinnedMesh } from '../../src/model/types.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';

/** .x MeshVertexColors → SkinnedMesh.colors: per file position, linearised from sRGB, following split vertices. */

/** A quad of 4 positions, 2 triangles with a normal each (positions 0 and 2 are split), and `colours`. */
function quad(colours: string): Uint8Array {
  return new TextEncoder().encode(`xof 0303txt 0032
Mesh quad {
 4;
 0.0;0.0;0.0;,
 1.0;0.0;0.0;,
 1.0;1.0;0.0;,
 0.0;1.0;0.0;;
 2;
 3;0,1,2;,
 3;0,2,3;;
 MeshNormals {
  2;
  0.0;0.0;1.0;,
  0.0;0.1;1.0;;
  2;
  3;0,0,0;,
  3;1,1,1;;
 }
 ${colours}
}
`);
}

const COLOURS = `MeshVertexColors {
  3;
  0;1.0;0.0;0.0;1.0;;,
  1;0.5;0.5;0.5;1.0;;,
  2;0.0;0.0;1.0;0.5;;;
 }`;

/** The file position a built vertex came from, by its (x, y). */
function positionOf(mesh: SkinnedMesh, v: number): number {
  const x = Math.round(mesh.positions[v * 3]!);
  const y = Math.round(mesh.positions[v * 3 + 1]!);
  return [[0, 0], [1, 0], [1, 1], [0, 1]].findIndex(([px, py]) => px === x && py === y);
}

describe('.x MeshVertexColors', () => {
  it('each vertex, split copies included, takes its position colour as linear RGBA; a position without one is white', () => {
    const scene = loadModel('quad.x', quad(COLOURS));
    const mesh = scene.meshes[0]!;
    expect(mesh.vertexCount, 'positions 0 and 2 split by their two normals').toBe(6);
    const grey = srgbToLinear(0.5);
    expect(grey).toBeCloseTo(0.214, 3);
    const want = [[1, 0, 0, 1], [grey, grey, grey, 1], [0, 0, 1, 0.5], [1, 1, 1, 1]];
    for (let v = 0; v < mesh.vertexCount; v++) {
      const p = positionOf(mesh, v);
      expect(p).toBeGreaterThanOrEqual(0);
      const got = Array.from(mesh.colors!.subarray(v * 4, v * 4 + 4));
      for (let k = 0; k < 4; k++) expect(got[k]!, `vertex ${v} (position ${p}) component ${k}`).toBeCloseTo(want[p]![k]!, 5);
    }
    expect(scene.warnings).toEqual([]);
  });

  it('an index outside the positions or a short list drops the colours with a warning; the mesh still loads', () => {
    const outside = loadModel('quad.x', quad('MeshVertexColors { 1; 7;1.0;0.0;0.0;1.0;;; }'));
    expect(outside.meshes[0]!.colors ?? null).toBeNull();
    expect(outside.warnings.join('\n')).toMatch(/mesh 'quad': MeshVertexColors entry 0 names vertex 7, outside 0\.\.3: vertex colours ignored/);
    const short = loadModel('quad.x', quad('MeshVertexColors { 3; 0;1.0;0.0;0.0;1.0;;; }'));
    expect(short.meshes[0]!.colors ?? null).toBeNull();
    expect(short.warnings.join('\n')).toMatch(/claims 3 colours.*vertex colours ignored/);
  });
});

/** D3DCOLOR DWORDs (0xAARRGGBB) of the 4 positions: red, grey 128 at alpha 128, blue, white. */
const PACKED = [0xffff0000, 0x80808080, 0xff0000ff, 0xffffffff];

describe('.x DeclData and FVFData colours', () => {
  const grey = srgbToLinear(128 / 255);
  const want = [[1, 0, 0, 1], [grey, grey, grey, 128 / 255], [0, 0, 1, 1], [1, 1, 1, 1]];
  const expectPacked = (mesh: SkinnedMesh): void => {
    for (let v = 0; v < mesh.vertexCount; v++) {
      const p = positionOf(mesh, v);
      for (let k = 0; k < 4; k++) expect(mesh.colors![v * 4 + k]!, `vertex ${v} (position ${p}) component ${k}`).toBeCloseTo(want[p]![k]!, 5);
    }
  };

  it('DeclData COLOR as D3DCOLOR (ARGB, sRGB) is read as linear RGBA per position', () => {
    const scene = loadModel('quad.x', quad(`DeclData { 1; 4;0;10;0;; 4; ${PACKED.join(',')}; }`));
    expectPacked(scene.meshes[0]!);
    expect(scene.warnings).toEqual([]);
  });

  it("FVFData's diffuse colour (D3DFVF_DIFFUSE) is read the same way", () => {
    const scene = loadModel('quad.x', quad(`FVFData { ${0x40}; 4; ${PACKED.join(',')}; }`));
    expectPacked(scene.meshes[0]!);
  });

  it('MeshVertexColors wins over DeclData colours', () => {
    const scene = loadModel('quad.x', quad(`DeclData { 1; 4;0;10;0;; 4; ${PACKED.join(',')}; }\n ${COLOURS}`));
    const mesh = scene.meshes[0]!;
    const at = (p: number): number => Array.from({ length: mesh.vertexCount }, (_, i) => i).find((i) => positionOf(mesh, i) === p)!;
    // The alphas tell them apart: MeshVertexColors gives positions 1 and 2 alpha 1 and 0.5, DeclData 128/255 and 1.
    expect(mesh.colors![at(1) * 4 + 3]).toBe(1);
    expect(mesh.colors![at(2) * 4 + 3]).toBe(0.5);
  });
});

describeCorpus('.x MeshVertexColors in the corpus', () => {
  it("kW X-port's cube keeps its red and white vertex colours", () => {
    const scene = loadModel('kwxport_test_cubewithvcolors.x', corpusBytes('kwxport_test_cubewithvcolors.x'));
    const mesh = scene.meshes.find((m) => m.colors)!;
    expect(mesh, 'a mesh with vertex colours').toBeTruthy();
    let red = 0;
    let white = 0;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const [r, g, b] = mesh.colors!.subarray(v * 4, v * 4 + 3);
      if (r === 1 && g === 0 && b === 0) red++;
      if (r === 1 && g === 1 && b === 1) white++;
    }
    expect(red).toBeGreaterThan(0);
    expect(white).toBeGreaterThan(0);
    expect(scene.warnings.join('\n')).not.toMatch(/MeshVertexColors/);
  });
});
