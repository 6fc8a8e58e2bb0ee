import { mat4, quat, vec3 } from 'gl-matrix';
import { expect, it } from 'vitest';
import { matrixAsTrs } from '../../src/export/trs.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { readX } from '../../src/loaders/x/read-x.ts';
import type { XObject } from '../../src/loaders/x/xnode.ts';
import { mirrorMat4 } from '../../src/model/handedness.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';

/**
 * glTF animates nodes with TRS only. The .x loader decomposes matrix keys (AnimationKey type 4) into TRS,
 * a mirrored matrix as a negative X scale. Here every matrix key of the DirectX SDK's Tiny files is
 * checked against the raw file: it is a TRS (no shear, which glTF could not express), and the Scene's
 * keys, recomposed as T·R·S, give back the file's matrix (Z-mirrored into skinlab's right-handed space).
 */

interface MatrixKeys {
  /** The AnimationSet's name. */
  set: string;
  frame: string;
  matrices: Float32Array[];
}

function matrixKeys(bytes: Uint8Array, name: string): MatrixKeys[] {
  const out: MatrixKeys[] = [];
  const visit = (o: XObject, set: string): void => {
    if (o.template === 'Animation') {
      const ref = o.children.find((c) => c.kind === 'ref')?.name ?? o.children.find((c) => c.kind === 'object' && c.template === 'Frame')?.name;
      for (const key of o.children) {
        if (key.kind !== 'object' || key.template !== 'AnimationKey' || key.numbers[0] !== 4) continue;
        const n = key.numbers[1]!;
        const matrices: Float32Array[] = [];
        let p = 2;
        for (let k = 0; k < n; k++) {
          p++;
          const count = key.numbers[p++]!;
          const m = Float32Array.from(key.numbers.subarray(p, p + 16));
          mirrorMat4(m);
          matrices.push(m);
          p += count;
        }
        if (ref) out.push({ set, frame: ref, matrices });
      }
    }
    for (const c of o.children) if (c.kind === 'object') visit(c, o.template === 'AnimationSet' ? o.name : set);
  };
  for (const o of readX(bytes, name).objects) visit(o, '');
  return out;
}

describeCorpus('matrix keys and mirrored frames in glTF', () => {
  for (const file of ['tiny.x', 'tiny_4anim.x']) {
    it(`${file}: every matrix key is a TRS and the Scene's keys rebuild it`, () => {
      const bytes = corpusBytes(file);
      const keys = matrixKeys(bytes, file);
      const scene = loadModel(file, bytes);
      let total = 0, mirrored = 0, compared = 0, worst = 0;
      const sheared: string[] = [];
      for (const { frame, matrices } of keys) {
        for (const m of matrices) {
          total++;
          if (mat4.determinant(m as unknown as mat4) < 0) mirrored++;
          if (!matrixAsTrs(m, 1e-4) && !sheared.includes(frame)) sheared.push(frame);
        }
      }
      expect(sheared).toEqual([]);
      expect(total).toBeGreaterThan(1000);
      expect(mirrored).toBeGreaterThan(100);
      for (const { set, frame, matrices } of keys) {
        const clip = scene.clips.find((c) => c.name === set) ?? (scene.clips.length === 1 ? scene.clips[0] : undefined);
        if (!clip) continue;
        const track = clip.tracks.find((t) => scene.skeleton.names[t.node] === frame);
        if (!track?.rotation || !track.translation || !track.scale || track.rotation.times.length !== matrices.length) continue;
        matrices.forEach((m, k) => {
          const r = track.rotation!.values.subarray(k * 4, k * 4 + 4);
          const t = track.translation!.values.subarray(k * 3, k * 3 + 3);
          const s = track.scale!.values.subarray(k * 3, k * 3 + 3);
          const back = mat4.fromRotationTranslationScale(mat4.create(), r as unknown as quat, t as unknown as vec3, s as unknown as vec3);
          let scale = 1;
          for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(m[i]!));
          for (let i = 0; i < 16; i++) worst = Math.max(worst, Math.abs(back[i]! - m[i]!) / scale);
          compared++;
        });
      }
      console.log(`[export matrix keys] ${file}: ${total} matrix keys, ${mirrored} mirrored, 0 sheared; ${compared} rebuilt from the Scene, worst element error ${worst.toExponential(2)}`);
      expect(compared).toBeGreaterThan(500);
      expect(worst).toBeLessThan(1e-5);
    });
  }
});
