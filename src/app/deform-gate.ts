import { DEFORM_KINDS, deformKindOf, type DeformKind } from '../deform/kinds.ts';
import type { SkinnedMesh } from '../model/types.ts';
import { slimMesh, type DeformReply, type DeformRequest } from './deform-protocol.ts';
import type { AppView, LoadedModel } from './loaded-model.ts';
import type { AppState } from './state.ts';

/**
 * Holds a technique back until its load-time data exists: `cor` needs a centre of rotation per vertex, `ddm` the
 * Ω matrices (src/deform/kinds.ts). The first time a model is drawn with such a technique, the precompute runs in
 * a worker (deform-worker.ts) while the page keeps drawing the technique it had, with progress in the page; the
 * result is stored on the meshes (the deform modules' caches, which createMesh reads) and kept for the session
 * per model id, detail level and kind, so coming back to a model or a technique costs nothing.
 *
 * Contract
 * - ready(model, id): true when technique `id` needs nothing or its data is on every mesh of `model` (restored from
 *   the session cache when there); otherwise starts the precompute (once) and returns false. Allocates only when
 *   it starts one.
 * - whenReady(model, ids): resolves when ready() holds for every id, rejects with the precompute's error;
 *   whenShown(model, state) does it for what the state shows and never rejects (fail has said why).
 * - A new model cancels a precompute for another one (its worker is terminated); a failure is reported once
 *   through `fail` and the technique stays held back (the page keeps its previous one).
 * - Where no worker can start, the precompute runs on the page's thread (the page stalls for its duration).
 * - figures(): how the current model's data of each kind was had (ms, 'worker' | 'main'; 'cache', 0 ms, when the
 *   session had it from an earlier load), for info().precompute.
 */

interface Job {
  readonly key: string;
  readonly kind: DeformKind;
  readonly model: LoadedModel;
  readonly promise: Promise<void>;
  worker: Worker | null;
  failed: string | null;
}

export interface PrecomputeFigure {
  readonly ms: number;
  readonly where: 'worker' | 'main' | 'cache';
}

const LABELS: Record<DeformKind, string> = {
  cor: 'centres of rotation',
  ddm: 'direct delta mush matrices',
};

export class DeformGate {
  /** Session cache: model id, detail and kind → one result per mesh. */
  private readonly session = new Map<string, readonly unknown[]>();
  private readonly costs = new Map<string, PrecomputeFigure>();
  private job: Job | null = null;

  constructor(
    private readonly view: AppView,
    private readonly fail: (message: string) => void,
  ) {}

  ready(model: LoadedModel, id: string): boolean {
    const kind = deformKindOf(id);
    if (kind === null) return true;
    const meshes = model.scene.meshes;
    const spec = DEFORM_KINDS[kind];
    // A plain loop: reached every frame in compare mode, where a closure would allocate.
    let all = true;
    for (let i = 0; i < meshes.length && all; i++) all = spec.has(meshes[i]!);
    if (all) return true;
    const key = sessionKey(model, kind);
    const cached = this.session.get(key);
    if (cached) {
      meshes.forEach((m, i) => spec.store(m, cached[i]));
      this.costs.set(key, { ms: 0, where: 'cache' });
      return true;
    }
    this.start(model, kind, key);
    return false;
  }

  async whenReady(model: LoadedModel, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      while (!this.ready(model, id)) {
        const job = this.job;
        if (!job) throw new Error(`${id}: its precompute did not start`);
        if (job.failed) throw new Error(job.failed);
        // Possibly another kind's job for this model: the loop starts this one when it ends.
        await job.promise;
      }
    }
  }

  /** Waits until the techniques the state shows (its technique, compare's pair) can draw; a failure is already reported. */
  whenShown(model: LoadedModel | null, state: AppState): Promise<void> {
    if (!model) return Promise.resolve();
    const ids = state.compare ? [state.technique, state.compare.a, state.compare.b] : [state.technique];
    return this.whenReady(model, ids).catch(() => {});
  }

  figures(model: LoadedModel | null): Partial<Record<DeformKind, PrecomputeFigure>> {
    const out: Partial<Record<DeformKind, PrecomputeFigure>> = {};
    if (!model) return out;
    for (const kind of Object.keys(DEFORM_KINDS) as DeformKind[]) {
      const f = this.costs.get(sessionKey(model, kind));
      if (f) out[kind] = f;
    }
    return out;
  }

  /** Stops a running precompute (a new model, or the user's Cancel); true when one was running. */
  cancel(): boolean {
    const job = this.job;
    this.job = null;
    if (!job) return false;
    job.worker?.terminate();
    if (job.failed !== null) return false;
    this.view.progress(null);
    return true;
  }

  private start(model: LoadedModel, kind: DeformKind, key: string): void {
    const current = this.job;
    if (current) {
      // Running or failed already: once. Busy with another kind for this model: this one waits its turn.
      if (current.key === key || (current.model === model && current.failed === null)) return;
      this.cancel();
    }
    const job: Job = { key, kind, model, worker: null, failed: null, promise: Promise.resolve() };
    const label = `Precomputing ${LABELS[kind]} for ${model.label}`;
    this.view.progress(`${label}…`, 0);
    const finish = (data: readonly unknown[], ms: number, where: 'worker' | 'main'): void => {
      if (this.job !== job) return;
      this.session.set(key, data);
      this.costs.set(key, { ms, where });
      model.scene.meshes.forEach((m, i) => DEFORM_KINDS[kind].store(m, data[i]));
      this.job = null;
      this.view.progress(null);
    };
    const failed = (message: string): void => {
      if (this.job !== job) return;
      job.failed = `${kind}: the precompute failed: ${message}`;
      this.view.progress(null);
      this.fail(job.failed);
    };
    (job as { promise: Promise<void> }).promise = this.run(job, model.scene.meshes, (f) => this.view.progress(`${label}… ${Math.round(f * 100)} %`, f))
      .then(({ data, ms, where }) => finish(data, ms, where))
      .catch((err: unknown) => {
        failed(err instanceof Error ? err.message : String(err));
        throw err;
      });
    // whenReady() awaits the promise; ready() callers do not: keep an unobserved rejection quiet.
    job.promise.catch(() => {});
    this.job = job;
  }

  private run(
    job: Job,
    meshes: readonly SkinnedMesh[],
    progress: (fraction: number) => void,
  ): Promise<{ data: readonly unknown[]; ms: number; where: 'worker' | 'main' }> {
    let worker: Worker | null = null;
    try {
      worker = new Worker(new URL('./deform-worker.ts', import.meta.url), { type: 'module', name: 'skinlab-precompute' });
    } catch {
      worker = null;
    }
    if (!worker) return this.runHere(job.kind, meshes, progress);
    job.worker = worker;
    const w = worker;
    return new Promise((resolve, reject) => {
      w.onmessage = (e: MessageEvent<DeformReply>) => {
        const reply = e.data;
        if (reply.type === 'ready') {
          const request: DeformRequest = { kind: job.kind, meshes: meshes.map(slimMesh) };
          w.postMessage(request);
        } else if (reply.type === 'progress') progress(reply.fraction);
        else {
          w.terminate();
          if (reply.type === 'done') resolve({ data: reply.data, ms: reply.ms, where: 'worker' });
          else reject(new Error(reply.message));
        }
      };
      w.onerror = (e) => {
        e.preventDefault();
        w.terminate();
        // A worker that cannot load its module: do the work here instead.
        this.runHere(job.kind, meshes, progress).then(resolve, reject);
      };
    });
  }

  private async runHere(kind: DeformKind, meshes: readonly SkinnedMesh[], progress: (fraction: number) => void): Promise<{ data: readonly unknown[]; ms: number; where: 'main' }> {
    progress(0);
    // Let the progress message paint before the page's thread is busy.
    await new Promise((r) => setTimeout(r, 30));
    const t0 = performance.now();
    const data = meshes.map((m) => DEFORM_KINDS[kind].compute(m, () => {}));
    return { data, ms: performance.now() - t0, where: 'main' };
  }
}

function sessionKey(model: LoadedModel, kind: DeformKind): string {
  // The vertex counts tell apart two files dropped under one name.
  return `${model.id}\n${model.detail}\n${model.scene.meshes.map((m) => m.vertexCount).join(',')}\n${kind}`;
}
