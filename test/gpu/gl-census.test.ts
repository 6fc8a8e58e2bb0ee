import { describe, expect, it } from 'vitest';
import { installGlCensus } from '../../src/gpu/gl-census.ts';

/** A stand-in context: create* hands out fresh objects (null once `lost`), delete* records what reached it. */
function fakeGl(): { gl: WebGL2RenderingContext; deletes: unknown[]; lose: () => void; setLost: (v: boolean) => void } {
  const listeners = new Map<string, (() => void)[]>();
  const canvas = {
    addEventListener: (type: string, fn: () => void) => listeners.set(type, [...(listeners.get(type) ?? []), fn]),
  };
  const deletes: unknown[] = [];
  let lost = false;
  const gl: Record<string, unknown> = { canvas };
  for (const kind of ['Buffer', 'Texture', 'Program', 'Shader', 'VertexArray', 'Framebuffer', 'Renderbuffer', 'TransformFeedback', 'Query', 'Sampler']) {
    gl[`create${kind}`] = () => (lost ? null : { kind });
    gl[`delete${kind}`] = (o: unknown) => deletes.push(o);
  }
  gl.fenceSync = () => (lost ? null : { kind: 'Sync' });
  gl.deleteSync = (o: unknown) => deletes.push(o);
  return {
    gl: gl as unknown as WebGL2RenderingContext,
    deletes,
    lose: () => {
      for (const fn of listeners.get('webglcontextlost') ?? []) fn();
    },
    setLost: (v) => {
      lost = v;
    },
  };
}

describe('installGlCensus', () => {
  it('counts live objects per kind through the wrapped instance methods', () => {
    const { gl } = fakeGl();
    const census = installGlCensus(gl);
    const a = gl.createBuffer();
    const b = gl.createBuffer();
    const t = gl.createTexture();
    const s = gl.createShader(0x8b31);
    const sync = gl.fenceSync(0x9117, 0);
    expect(census.snapshot()).toMatchObject({ buffers: 2, textures: 1, shaders: 1, syncs: 1, programs: 0 });
    gl.deleteBuffer(a);
    gl.deleteTexture(t);
    gl.deleteShader(s);
    gl.deleteSync(sync);
    expect(census.snapshot()).toMatchObject({ buffers: 1, textures: 0, shaders: 0, syncs: 0 });
    gl.deleteBuffer(b);
    expect(census.total).toBe(0);
  });

  it('ignores null, double deletes and objects it never saw, and still forwards them', () => {
    const { gl, deletes } = fakeGl();
    const census = installGlCensus(gl);
    const a = gl.createBuffer();
    gl.createBuffer();
    gl.deleteBuffer(a);
    gl.deleteBuffer(a);
    gl.deleteBuffer(null);
    gl.deleteBuffer({} as WebGLBuffer);
    // A texture handed to deleteBuffer is not a live buffer.
    const t = gl.createTexture();
    gl.deleteBuffer(t as unknown as WebGLBuffer);
    expect(census.live.buffers).toBe(1);
    expect(census.live.textures).toBe(1);
    expect(deletes).toHaveLength(5);
  });

  it('a failed create (null on a lost context) is not counted', () => {
    const { gl, setLost } = fakeGl();
    const census = installGlCensus(gl);
    setLost(true);
    expect(gl.createVertexArray()).toBeNull();
    expect(census.live.vertexArrays).toBe(0);
  });

  it('context loss resets every count and forgets the old objects', () => {
    const { gl, lose } = fakeGl();
    const census = installGlCensus(gl);
    const old = gl.createProgram();
    gl.createFramebuffer();
    lose();
    expect(census.total).toBe(0);
    expect(census.losses).toBe(1);
    const fresh = gl.createProgram();
    gl.deleteProgram(old);
    expect(census.live.programs).toBe(1);
    gl.deleteProgram(fresh);
    expect(census.live.programs).toBe(0);
  });

  it('installs once per context', () => {
    const { gl } = fakeGl();
    const census = installGlCensus(gl);
    expect(installGlCensus(gl)).toBe(census);
    gl.createBuffer();
    expect(census.live.buffers).toBe(1);
  });
});
