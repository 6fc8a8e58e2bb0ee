import { Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../../src/export/export-gltf.ts';
import { loadModelAsync } from '../../../src/loaders/load-model.ts';
import { validateScene } from '../../../src/model/build.ts';
import type { Scene, SkinnedMesh } from '../../../src/model/types.ts';
import { validateBytes, type ValidatorReport } from '../../export/validator.ts';
import { colourDocument, colourGlb, colourSquare } from './colour-fixture.ts';

/** glTF COLOR_0 → SkinnedMesh.colors (linear RGBA), its validation, and the export's COLOR_0. */

function expectColours(mesh: SkinnedMesh, want: readonly number[], tolerance: number): void {
  expect(mesh.colors, 'the mesh keeps its vertex colours').toBeTruthy();
  expect(mesh.colors!.length).toBe(mesh.vertexCount * 4);
  for (let i = 0; i < want.length; i++) expect(Math.abs(mesh.colors![i]! - want[i]!), `component ${i}`).toBeLessThanOrEqual(tolerance);
}

describe('glTF vertex colours', () => {
  it('VEC3 FLOAT COLOR_0 is read as linear RGBA with alpha 1, no warning', async () => {
    const scene = await loadModelAsync('vec3.glb', await colourGlb({ form: 'vec3-float' }));
    const want = colourSquare().colours.map((c, i) => (i % 4 === 3 ? 1 : c));
    expectColours(scene.meshes[0]!, want, 1e-6);
    expect(scene.warnings).toEqual([]);
  });

  it('VEC4 normalised UNSIGNED_BYTE COLOR_0 is read as c / 255, alpha included', async () => {
    const scene = await loadModelAsync('vec4.glb', await colourGlb({ form: 'vec4-ubyte' }));
    expectColours(scene.meshes[0]!, colourSquare().colours, 0.51 / 255);
    expect(scene.meshes[0]!.colors![4 * 4 + 3], "the right half's alpha").toBeCloseTo(Math.round(0.6 * 255) / 255, 6);
  });

  it('a primitive without NORMAL is unwelded flat and every copy keeps its vertex colour', async () => {
    const scene = await loadModelAsync('flat.glb', await colourGlb({ normals: false }));
    const mesh = scene.meshes[0]!;
    const { colours, indices } = colourSquare();
    expect(mesh.vertexCount).toBe(indices.length);
    const want = indices.flatMap((v) => [colours[v * 4]!, colours[v * 4 + 1]!, colours[v * 4 + 2]!, 1]);
    expectColours(mesh, want, 1e-6);
  });

  it('normalised UNSIGNED_SHORT colours are read as c / 65535; a VEC2 COLOR_0 is skipped with a warning', async () => {
    const doc = colourDocument();
    const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    const n = prim.getAttribute('POSITION')!.getCount();
    const shorts = new Uint16Array(n * 4).fill(65535);
    shorts[0] = 32768;
    prim.setAttribute('COLOR_0', doc.createAccessor().setType('VEC4').setArray(shorts).setNormalized(true).setBuffer(doc.getRoot().listBuffers()[0]!));
    const scene = await loadModelAsync('u16.glb', await new NodeIO().writeBinary(doc));
    expect(scene.meshes[0]!.colors![0]).toBeCloseTo(32768 / 65535, 6);

    prim.setAttribute('COLOR_0', doc.createAccessor().setType('VEC2').setArray(new Float32Array(n * 2)).setBuffer(doc.getRoot().listBuffers()[0]!));
    const bad = await loadModelAsync('vec2.glb', await new NodeIO().writeBinary(doc));
    expect(bad.meshes[0]!.colors ?? null, 'the model loads without colours').toBeNull();
    expect(bad.warnings.join('\n')).toMatch(/COLOR_0 has 2 components.*vertex colours ignored/);
  });

  it('validation: a colour array of the wrong length is dropped with a warning; NaN becomes white; out of range is clamped', async () => {
    const scene = await loadModelAsync('vec3.glb', await colourGlb());
    const mesh = scene.meshes[0]!;
    const broken = (colors: Float32Array): Scene => ({ ...scene, warnings: [], meshes: [{ ...mesh, colors }] });
    const short = broken(new Float32Array(8));
    validateScene(short);
    expect(short.meshes[0]!.colors).toBeNull();
    expect(short.warnings.join('\n')).toMatch(/2 vertex colours for 8 vertices: vertex colours ignored/);

    const odd = mesh.colors!.slice();
    odd[4] = NaN;
    odd[9] = 3;
    const repaired = broken(odd);
    validateScene(repaired);
    expect(Array.from(repaired.meshes[0]!.colors!.subarray(4, 8))).toEqual([1, 1, 1, 1]);
    expect(repaired.meshes[0]!.colors![9]).toBe(1);
    expect(repaired.warnings.join('\n')).toMatch(/vertex 1 has a NaN or infinite vertex colour: white used/);
    expect(repaired.warnings.join('\n')).toMatch(/vertex 2 has a vertex colour outside 0\.\.1: clamped/);
  });

  it('export writes COLOR_0 (validator-clean) and reading it back gives the same colours', async () => {
    const scene = await loadModelAsync('vec4.glb', await colourGlb({ form: 'vec4-ubyte', morph: true }));
    const { files } = await exportGltf(scene, { binary: true, textures: async () => null, fileName: 'out.glb' });
    const glb = files.get('out.glb')!;
    const report = (await validateBytes(glb, { maxIssues: 20 })) as ValidatorReport;
    expect(report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.message}`)).toEqual([]);
    const back = await loadModelAsync('out.glb', glb);
    expectColours(back.meshes[0]!, Array.from(scene.meshes[0]!.colors!), 1e-6);
    const doc: Document = await new NodeIO().readBinary(glb);
    const colour = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('COLOR_0')!;
    expect([colour.getType(), colour.getComponentType()]).toEqual(['VEC4', 5126]);
  });
});
