import { describe, expect, it } from 'vitest';
import { WorkerQueue, type QueueWorker } from '../../src/app/worker-queue.ts';

/** A worker that records what it is sent; the test replies or fails it by hand. */
class FakeWorker implements QueueWorker<string, string> {
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: ((e: { message?: string; preventDefault(): void }) => void) | null = null;
  readonly posted: string[] = [];
  terminated = false;
  postMessage(message: string): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: string): void {
    this.onmessage?.({ data });
  }
  fail(message: string): void {
    this.onerror?.({ message, preventDefault() {} });
  }
}

function setup(): { q: WorkerQueue<string, string>; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const q = new WorkerQueue<string, string>(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  }, 'test');
  return { q, workers };
}

const echo = (r: string): string | Error => (r.startsWith('error:') ? new Error(r.slice(6)) : r);
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('WorkerQueue', () => {
  it('starts one worker lazily, prewarm is idempotent and the worker serves request after request', async () => {
    const { q, workers } = setup();
    expect(workers.length).toBe(0);
    expect(q.prewarm()).toBe(true);
    expect(q.prewarm()).toBe(true);
    expect(workers.length).toBe(1);
    const a = q.request('a', new AbortController().signal, echo);
    workers[0]!.reply('A');
    await expect(a).resolves.toBe('A');
    const b = q.request('b', new AbortController().signal, echo);
    workers[0]!.reply('B');
    await expect(b).resolves.toBe('B');
    expect(workers.length).toBe(1);
    expect(workers[0]!.posted).toEqual(['a', 'b']);
    expect(workers[0]!.terminated).toBe(false);
  });

  it('posts one request at a time, first in first out', async () => {
    const { q, workers } = setup();
    const s = new AbortController().signal;
    const done: string[] = [];
    const all = ['a', 'b', 'c'].map((r) => q.request(r, s, echo).then((v) => done.push(v)));
    const w = workers[0]!;
    expect(w.posted).toEqual(['a']);
    expect(q.queued).toBe(2);
    w.reply('A');
    expect(w.posted).toEqual(['a', 'b']);
    w.reply('B');
    w.reply('C');
    await Promise.all(all);
    expect(done).toEqual(['A', 'B', 'C']);
    expect(q.busy).toBe(false);
  });

  it('an error reply rejects its request only; the worker stays', async () => {
    const { q, workers } = setup();
    const s = new AbortController().signal;
    const a = q.request('a', s, echo);
    const b = q.request('b', s, echo);
    workers[0]!.reply('error:bad mesh');
    await expect(a).rejects.toThrow('bad mesh');
    workers[0]!.reply('B');
    await expect(b).resolves.toBe('B');
    expect(workers.length).toBe(1);
  });

  it('cancelling a queued request removes it from the queue', async () => {
    const { q, workers } = setup();
    const c = new AbortController();
    const a = q.request('a', new AbortController().signal, echo);
    const b = q.request('b', c.signal, echo);
    const d = q.request('d', new AbortController().signal, echo);
    c.abort();
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    expect(q.queued).toBe(1);
    workers[0]!.reply('A');
    workers[0]!.reply('D');
    await expect(a).resolves.toBe('A');
    await expect(d).resolves.toBe('D');
    expect(workers[0]!.posted).toEqual(['a', 'd']);
  });

  it('cancelling the request in flight terminates the worker; the next request gets a fresh one', async () => {
    const { q, workers } = setup();
    const c = new AbortController();
    const a = q.request('a', c.signal, echo);
    const b = q.request('b', new AbortController().signal, echo);
    c.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0]!.terminated).toBe(true);
    expect(workers.length).toBe(2);
    expect(workers[1]!.posted).toEqual(['b']);
    // A late message of the terminated worker settles nothing.
    workers[0]!.reply('A');
    workers[1]!.reply('B');
    await expect(b).resolves.toBe('B');
  });

  it('cancelling the only request leaves no worker until the next one', async () => {
    const { q, workers } = setup();
    const c = new AbortController();
    const a = q.request('a', c.signal, echo);
    c.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers.length).toBe(1);
    const b = q.request('b', new AbortController().signal, echo);
    expect(workers.length).toBe(2);
    workers[1]!.reply('B');
    await expect(b).resolves.toBe('B');
  });

  it('an aborted signal rejects at once and starts nothing', async () => {
    const { q, workers } = setup();
    const c = new AbortController();
    c.abort();
    await expect(q.request('a', c.signal, echo)).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers.length).toBe(0);
  });

  it('a worker error rejects the request in flight with a clear message and replaces the worker', async () => {
    const { q, workers } = setup();
    const s = new AbortController().signal;
    const a = q.request('a', s, echo);
    const b = q.request('b', s, echo);
    workers[0]!.fail('out of memory');
    await expect(a).rejects.toThrow('the test worker stopped: out of memory');
    expect(workers[0]!.terminated).toBe(true);
    expect(workers.length).toBe(2);
    expect(workers[1]!.posted).toEqual(['b']);
    workers[1]!.reply('B');
    await expect(b).resolves.toBe('B');
  });

  it('a worker error while idle drops the worker; the next request starts another', async () => {
    const { q, workers } = setup();
    q.prewarm();
    workers[0]!.fail('');
    await tick();
    const a = q.request('a', new AbortController().signal, echo);
    expect(workers.length).toBe(2);
    workers[1]!.reply('A');
    await expect(a).resolves.toBe('A');
  });

  it('is unavailable when no worker can be started', () => {
    const q = new WorkerQueue<string, string>(() => null, 'test');
    expect(q.available()).toBe(false);
    expect(q.prewarm()).toBe(false);
  });

  it('a worker that cannot be restarted rejects the queued request', async () => {
    let n = 0;
    const workers: FakeWorker[] = [];
    const q = new WorkerQueue<string, string>(() => {
      if (n++ > 0) return null;
      const w = new FakeWorker();
      workers.push(w);
      return w;
    }, 'test');
    const s = new AbortController().signal;
    const a = q.request('a', s, echo);
    const b = q.request('b', s, echo);
    workers[0]!.fail('crash');
    await expect(a).rejects.toThrow('stopped: crash');
    await expect(b).rejects.toThrow('could not be started');
  });

  it('dispose rejects everything pending and terminates the worker', async () => {
    const { q, workers } = setup();
    const s = new AbortController().signal;
    const a = q.request('a', s, echo);
    const b = q.request('b', s, echo);
    q.dispose();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0]!.terminated).toBe(true);
  });
});
