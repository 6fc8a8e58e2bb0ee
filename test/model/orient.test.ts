import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { orientationMatrix, orientScene, type Axis } from '../../src/model/orient.ts';
import { mat3 } from 'gl-matrix';
import { localToModel } from '../../src/anim/local-to-model.ts';
import type { Scene } from '../../src/model/types.ts';

/** Every mesh skinned on the CPU at clip `clip`, time t: positions and normals, concatenated. */
function posed(scene: Scene, clip: number, t: number, bind = false): { p: Float32Array; n: Float32Array } {
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  player.play(clip, 0);
  player.setTime(t);
  player.evaluate();
  const ps: number[] = [];
  const ns: number[] = [];
  for (const mesh of scene.meshes) {
    const pal = new Float32Array(mesh.bones.length * 16);
    if (bind) for (let k = 0; k < mesh.bones.length; k++) pal.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], k * 16);
    else player.writePalette(mesh, pal);
    const p = new Float32Array(mesh.vertexCount * 3);
    const n = new Float32Array(mesh.vertexCount * 3);
    skinMesh(mesh, pal, p, n);
    ps.push(...p);
    ns.push(...n);
  }
  return { p: Float32Array.from(ps), n: Float32Array.from(ns) };
}

describe('orientScene: a scene authored with another up axis stood upright, facing +Z', () => {
  const source = loadModel('tiny_4anim.x', new Uint8Array(readFileSync('public/models/tiny/tiny_4anim.x')));
  // The MultiAnimation Tiny stands along −Z and faces −Y here: (x, y, z) → (−x, −z, −y).
  const upright = orientScene(source, { up: '-z', forward: '-y' });

  it('every orientation of perpendicular axes is a proper rotation taking up to +Y and forward to +Z', () => {
    const axes: Axis[] = ['+x', '-x', '+y', '-y', '+z', '-z'];
    let count = 0;
    for (const up of axes) {
      for (const forward of axes) {
        if (up[1] === forward[1]) {
          expect(() => orientationMatrix({ up, forward })).toThrow(/not perpendicular/);
          continue;
        }
        const r = orientationMatrix({ up, forward });
        expect(mat3.determinant(r)).toBe(1);
        const u = [0, 0, 0];
        u['xyz'.indexOf(up[1]!)] = up[0] === '-' ? -1 : 1;
        expect([r[0]! * u[0]! + r[3]! * u[1]! + r[6]! * u[2]!, r[1]! * u[0]! + r[4]! * u[1]! + r[7]! * u[2]!, r[2]! * u[0]! + r[5]! * u[1]! + r[8]! * u[2]!]).toEqual([0, 1, 0]);
        count++;
      }
    }
    expect(count).toBe(24);
  });

  it('up +Y facing +Z changes nothing', () => {
    const same = orientScene(source, { up: '+y', forward: '+z' });
    const a = posed(source, 1, 0.3);
    const b = posed(same, 1, 0.3);
    for (let i = 0; i < a.p.length; i++) expect(Math.abs(b.p[i]! - a.p[i]!)).toBeLessThan(1e-3);
  });

  it('every skinned vertex and normal is the original turned (x, y, z) → (−x, −z, −y), at several times of every clip', () => {
    let compared = 0;
    source.clips.forEach((clip, c) => {
      for (const f of [0, 0.37, 0.81]) {
        const t = clip.duration * f;
        const a = posed(source, c, t);
        const b = posed(upright, c, t);
        let worst = 0;
        for (let i = 0; i < a.p.length; i += 3) {
          worst = Math.max(worst, Math.abs(b.p[i]! + a.p[i]!), Math.abs(b.p[i + 1]! + a.p[i + 2]!), Math.abs(b.p[i + 2]! + a.p[i + 1]!));
          worst = Math.max(worst, 1e3 * Math.abs(b.n[i + 1]! + a.n[i + 2]!));
          compared++;
        }
        // Tiny is about 500 units tall: 2e-3 units is float rounding.
        expect(worst, `${clip.name} t=${t}`).toBeLessThan(2e-3);
      }
    });
    expect(compared).toBeGreaterThan(10_000);
  });

  it('stands the MultiAnimation Tiny up: taller along +Y than deep along Z while walking, head above feet, facing +Z', () => {
    const walk = upright.clips.findIndex((c) => c.name === 'Walk');
    const { p } = posed(upright, walk, 0.25);
    let minY = Infinity, maxY = -Infinity, minZ = Infinity, maxZ = -Infinity;
    for (let i = 0; i < p.length; i += 3) {
      minY = Math.min(minY, p[i + 1]!);
      maxY = Math.max(maxY, p[i + 1]!);
      minZ = Math.min(minZ, p[i + 2]!);
      maxZ = Math.max(maxZ, p[i + 2]!);
    }
    expect(maxY - minY).toBeGreaterThan(1.5 * (maxZ - minZ));
    const player = new AnimPlayer(upright.skeleton, upright.clips);
    player.play(walk, 0);
    player.setTime(0.25);
    player.evaluate();
    const model = new Float32Array(upright.skeleton.parents.length * 16);
    localToModel(upright.skeleton.parents, player.locals, model);
    const at = (name: string, k: number): number => model[upright.skeleton.names.indexOf(name) * 16 + 12 + k]!;
    expect(at('Bip01_Head', 1)).toBeGreaterThan(at('Bip01_L_Foot', 1) + 300);
    // The toes are ahead of the heels (ankles) along +Z: she faces the default camera.
    expect(at('Bip01_L_Toe0', 2) + at('Bip01_R_Toe0', 2)).toBeGreaterThan(at('Bip01_L_Foot', 2) + at('Bip01_R_Foot', 2));
  });

  it('the bind pose (identity palette) is turned too, and the input scene is left as it was', () => {
    const before = Float32Array.from(source.meshes[1]!.positions);
    const a = posed(source, 0, 0, true);
    const b = posed(upright, 0, 0, true);
    for (let i = 0; i < a.p.length; i += 3) expect(Math.abs(b.p[i + 1]! + a.p[i + 2]!)).toBeLessThan(1e-4);
    expect(source.meshes[1]!.positions).toEqual(before);
  });
});
