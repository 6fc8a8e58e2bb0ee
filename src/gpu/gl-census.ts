/**
 * Live counts of the GL objects a WebGL2 context holds, kept by the page itself (no extension reports them).
 *
 * installGlCensus(gl) wraps the context *instance's* create / delete methods once, at startup, before anything
 * else touches the context: every caller (our own gpu/ and render/ code, twgl's program and shader creation)
 * goes through the same object, so every object is seen. An object counts from its create call until the
 * first delete of it; deleting null, an object never created here, an object already deleted, one of
 * another kind or one from before a context loss changes nothing. The wrapped methods behave exactly as the originals (the census
 * only watches).
 *
 * Context loss destroys every object at once: on `webglcontextlost` every count drops to 0 and the objects
 * of the lost context are forgotten (deleting them later does not count).
 *
 * Cost: the wrappers allocate nothing; membership is a WeakMap, so the census never keeps an object alive.
 * A leaked object the page dropped without deleting stays counted (that is what the counts are for).
 */

/** One count per kind of GL object. */
export interface GlObjectCounts {
  buffers: number;
  textures: number;
  programs: number;
  shaders: number;
  vertexArrays: number;
  framebuffers: number;
  renderbuffers: number;
  transformFeedbacks: number;
  queries: number;
  samplers: number;
  syncs: number;
}

export type GlObjectKind = keyof GlObjectCounts;

/** [kind, create method, delete method] of every WebGL2 object type. */
const KINDS: readonly (readonly [GlObjectKind, string, string])[] = [
  ['buffers', 'createBuffer', 'deleteBuffer'],
  ['textures', 'createTexture', 'deleteTexture'],
  ['programs', 'createProgram', 'deleteProgram'],
  ['shaders', 'createShader', 'deleteShader'],
  ['vertexArrays', 'createVertexArray', 'deleteVertexArray'],
  ['framebuffers', 'createFramebuffer', 'deleteFramebuffer'],
  ['renderbuffers', 'createRenderbuffer', 'deleteRenderbuffer'],
  ['transformFeedbacks', 'createTransformFeedback', 'deleteTransformFeedback'],
  ['queries', 'createQuery', 'deleteQuery'],
  ['samplers', 'createSampler', 'deleteSampler'],
  ['syncs', 'fenceSync', 'deleteSync'],
];

export function emptyCounts(): GlObjectCounts {
  return {
    buffers: 0,
    textures: 0,
    programs: 0,
    shaders: 0,
    vertexArrays: 0,
    framebuffers: 0,
    renderbuffers: 0,
    transformFeedbacks: 0,
    queries: 0,
    samplers: 0,
    syncs: 0,
  };
}

export class GlCensus {
  /** Live objects per kind; read-only for callers (snapshot() copies). */
  readonly live: GlObjectCounts = emptyCounts();
  /** Context losses seen since install. */
  losses = 0;
  /** Objects created and not yet deleted in the current context generation, and their kind. */
  private tracked = new WeakMap<object, GlObjectKind>();

  /** Copies the counts into `out` (a new object when omitted). */
  snapshot(out: GlObjectCounts = emptyCounts()): GlObjectCounts {
    for (const [kind] of KINDS) out[kind] = this.live[kind];
    return out;
  }

  /** Sum over every kind. */
  get total(): number {
    let n = 0;
    for (const [kind] of KINDS) n += this.live[kind];
    return n;
  }

  /** Every object of the context is gone (context loss): counts to 0, the old objects forgotten. */
  reset(): void {
    for (const [kind] of KINDS) this.live[kind] = 0;
    this.tracked = new WeakMap<object, GlObjectKind>();
  }

  /** Counts `obj` as created (null, a failed create, is ignored). */
  created(kind: GlObjectKind, obj: unknown): void {
    if (obj === null || typeof obj !== 'object') return;
    this.tracked.set(obj, kind);
    this.live[kind]++;
  }

  /** Counts `obj` as deleted if it is live; anything else is ignored. */
  deleted(kind: GlObjectKind, obj: unknown): void {
    if (obj === null || typeof obj !== 'object' || this.tracked.get(obj) !== kind) return;
    this.tracked.delete(obj);
    this.live[kind]--;
  }
}

const INSTALLED = new WeakMap<WebGL2RenderingContext, GlCensus>();

/**
 * Wraps `gl`'s create/delete methods (once per context; a second call returns the same census) and resets the
 * counts on `webglcontextlost`. Install before any GL object is created, or the earlier ones are not counted.
 */
export function installGlCensus(gl: WebGL2RenderingContext): GlCensus {
  const existing = INSTALLED.get(gl);
  if (existing) return existing;
  const census = new GlCensus();
  const target = gl as unknown as Record<string, (...args: never[]) => unknown>;
  for (const [kind, create, remove] of KINDS) {
    const originalCreate = target[create] as ((this: WebGL2RenderingContext, a?: number, b?: number) => unknown) | undefined;
    const originalDelete = target[remove] as ((this: WebGL2RenderingContext, obj: unknown) => void) | undefined;
    if (typeof originalCreate !== 'function' || typeof originalDelete !== 'function') continue;
    // Fixed arity (createShader takes a type, fenceSync a condition and flags): no rest arrays per call.
    target[create] = function (this: WebGL2RenderingContext, a?: number, b?: number): unknown {
      const obj = originalCreate.call(this, a, b);
      census.created(kind, obj);
      return obj;
    };
    target[remove] = function (this: WebGL2RenderingContext, obj: unknown): void {
      census.deleted(kind, obj);
      originalDelete.call(this, obj);
    };
  }
  gl.canvas.addEventListener('webglcontextlost', () => {
    census.losses++;
    census.reset();
  });
  INSTALLED.set(gl, census);
  return census;
}
