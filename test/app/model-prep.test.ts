import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_MODELS } from '../../src/app/builtins.ts';
import { firstModelPrep } from '../../src/app/early-start.ts';
import { animatedFraming } from '../../src/app/framing.ts';
import { prepareScene, samePrep } from '../../src/app/model-prep.ts';
import { prepareInWorker } from '../../src/app/model-prep-worker.ts';
import { transferables } from '../../src/app/parse-protocol.ts';
import { standUpright } from '../../src/app/up-axis.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';

/**
 * The preparation the parse worker does after its parse (model-prep.ts): the same upright scene and framing
 * the page computed itself, plain data that survives the worker's structured clone, and the check the
 * page makes before taking a preparation made for the query's guess of the load options.
 */

const root = process.cwd();
const tiny4 = (): Scene => loadModel('tiny_4anim.x', new Uint8Array(readFileSync(join(root, 'public', 'models', 'tiny', 'tiny_4anim.x'))));
const walker = (): Scene => loadModel('walker.m3d', new Uint8Array(readFileSync(join(root, 'public', 'models', 'generated', 'walker.m3d'))));

describe('prepareScene', () => {
  it('is standUpright, then the framing of the upright scene', async () => {
    const orient = BUILTIN_MODELS.find((b) => b.id === 'tiny4')!.orient;
    const { scene, facts } = await prepareScene(tiny4(), { up: 'auto', orient });
    const upright = standUpright(tiny4(), 'auto', orient);
    expect(scene).toEqual(upright.scene);
    expect(facts.up).toEqual(upright.up);
    expect(facts.framing).toEqual(animatedFraming(upright.scene));
  });

  it('gives plain data: the facts survive a structured clone unchanged and carry no buffer', async () => {
    const { facts } = await prepareScene(walker(), { up: 'y' });
    expect(structuredClone(facts)).toEqual(facts);
    expect(transferables(facts)).toEqual([]);
  });

  it('in the worker, a preparation that throws sends the scene back as parsed, without facts', async () => {
    const scene = walker();
    const broken = { ...scene, clips: null } as unknown as Scene;
    const r = await prepareInWorker(broken, { up: 'auto' });
    expect(r.scene).toBe(broken);
    expect(r.facts).toBeUndefined();
    expect(await prepareInWorker(scene, undefined)).toEqual({ scene });
  });

  it('in steps, with the thread free between them as the worker runs it: the same result', async () => {
    const orient = BUILTIN_MODELS.find((b) => b.id === 'tiny4')!.orient;
    const steps: string[] = [];
    const stepwise = await prepareScene(tiny4(), { up: 'auto', orient }, async () => void steps.push('yield'));
    expect(stepwise).toEqual(await prepareScene(tiny4(), { up: 'auto', orient }));
    // Upright, the rest pose, then one per clip.
    expect(steps.length).toBe(2 + tiny4().clips.length);
    expect(await prepareInWorker(tiny4(), { up: 'auto', orient })).toEqual(stepwise);
  });
});

describe('samePrep and the first model guess', () => {
  it('compares the up key and the built-in orientation', () => {
    expect(samePrep({ up: 'auto' }, { up: 'auto' })).toBe(true);
    expect(samePrep({ up: 'auto' }, { up: 'z' })).toBe(false);
    expect(samePrep({ up: 'auto', orient: { up: '-z', forward: '-y' } }, { up: 'auto', orient: { up: '-z', forward: '-y' } })).toBe(true);
    expect(samePrep({ up: 'auto', orient: { up: '-z', forward: '-y' } }, { up: 'auto' })).toBe(false);
  });

  it('reads the query as the page does: a bad up value is the default, a built-in brings its orientation', () => {
    expect(firstModelPrep('?model=tiny4&up=y')).toEqual({ up: 'y', orient: BUILTIN_MODELS.find((b) => b.id === 'tiny4')!.orient });
    expect(firstModelPrep('?up=sideways')).toEqual({ up: 'auto', orient: undefined });
    expect(firstModelPrep('?model=models%2Fx.glb&up=z')).toEqual({ up: 'z', orient: undefined });
  });
});
