import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/app/parse-client.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { LoadError } from '../../src/model/errors.ts';

/**
 * parseModel where no Worker can start (Node has none): the same parse on the calling thread, the same
 * errors, and cancellation before it starts. The worker path runs in the browser (e2e/loading.spec.ts).
 */

const walker = (): Uint8Array => new Uint8Array(readFileSync(join(process.cwd(), 'public', 'models', 'generated', 'walker.m3d')));

describe('parseModel without workers', () => {
  it('parses on the calling thread, reporting where and how long', async () => {
    expect(typeof Worker).toBe('undefined');
    const ticks: number[] = [];
    const r = await parseModel('walker.m3d', walker(), new AbortController().signal, (ms) => ticks.push(ms));
    expect(r.where).toBe('main');
    expect(r.scene).toEqual(loadModel('walker.m3d', walker()));
    expect(r.parseMs).toBeGreaterThan(0);
    expect(r.totalMs).toBeGreaterThanOrEqual(r.parseMs);
    expect(ticks).toEqual([0]);
  });

  it('rejects with the LoadError loadModel throws', async () => {
    const err = await parseModel('empty.x', new Uint8Array(0), new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoadError);
    expect((err as LoadError).message).toBe('empty.x: the file is empty');
  });

  it('an aborted signal rejects with an AbortError and parses nothing', async () => {
    const abort = new AbortController();
    abort.abort();
    const err = await parseModel('walker.m3d', walker(), abort.signal).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
  });
});
