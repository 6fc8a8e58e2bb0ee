import { describe, expect, it } from 'vitest';
import { MeshBuffers } from '../../src/gpu/mesh-buffers.ts';
import { SharedMesh } from '../../src/techniques/mesh-state.ts';
import { morphQuad } from '../anim/morph-fixtures.ts';

/**
 * The wireframe's edges are built on first use: a mesh's GPU copy and a technique's mesh state make no edge
 * buffer at load, and the first read of `wireDraws` builds it once, as the wire vertex array's elements, leaving
 * whatever vertex array was bound bound. Driven through a GL that records what each vertex array holds.
 */

const ELEMENT_ARRAY_BUFFER = 0x8893;
const ARRAY_BUFFER = 0x8892;

interface Vao {
  id: number;
  elements: Buf | null;
}
interface Buf {
  id: number;
  data: number[] | null;
}

/** A WebGL2 context reduced to what MeshBuffers calls, recording each element upload and each vertex array's elements. */
function recordingGl() {
  let next = 1;
  let bound: Vao | null = null;
  const defaultVao: Vao = { id: 0, elements: null };
  const elementUploads: number[][] = [];
  const gl = {
    ARRAY_BUFFER,
    ELEMENT_ARRAY_BUFFER,
    STATIC_DRAW: 0x88e4,
    FLOAT: 0x1406,
    UNSIGNED_SHORT: 0x1403,
    VERTEX_ARRAY_BINDING: 0x85b5,
    createVertexArray: (): Vao => ({ id: next++, elements: null }),
    createBuffer: (): Buf => ({ id: next++, data: null }),
    bindVertexArray: (v: Vao | null) => void (bound = v),
    getParameter: (p: number) => (p === 0x85b5 ? bound : null),
    bindBuffer: (target: number, b: Buf | null) => {
      if (target === ELEMENT_ARRAY_BUFFER) (bound ?? defaultVao).elements = b;
    },
    bufferData: (target: number, data: ArrayLike<number>) => {
      if (target !== ELEMENT_ARRAY_BUFFER) return;
      const b = (bound ?? defaultVao).elements!;
      b.data = Array.from(data);
      elementUploads.push(b.data);
    },
    enableVertexAttribArray: () => {},
    disableVertexAttribArray: () => {},
    vertexAttribPointer: () => {},
    vertexAttribIPointer: () => {},
    vertexAttrib2f: () => {},
    vertexAttrib4f: () => {},
  };
  return { gl: gl as unknown as WebGL2RenderingContext, elementUploads, bound: () => bound };
}

/** The smallest SharedMesh: the contract under test is its wire state, not its skinning. */
class SharedMeshForTest extends SharedMesh {
  update(): number {
    return 0;
  }
  bind(): void {}
  dispose(): void {}
}

describe('wireframe edges on first use', () => {
  const mesh = morphQuad();

  it('MeshBuffers uploads the triangles only; wireEdges builds the edges once, as the wire vertex array elements', () => {
    const { gl, elementUploads, bound } = recordingGl();
    const buffers = new MeshBuffers(gl, mesh);
    expect(elementUploads).toEqual([Array.from(mesh.indices)]);
    const wireVao = buffers.wireVao as unknown as Vao;
    expect(wireVao.elements).toBeNull();

    const somethingBound = { id: 99, elements: null } as Vao;
    gl.bindVertexArray(somethingBound as unknown as WebGLVertexArrayObject);
    const edges = buffers.wireEdges();
    expect(bound()).toBe(somethingBound);
    expect(somethingBound.elements).toBeNull();
    // The quad's two triangles (0 1 2 and 2 1 3) share one edge: 5 edges.
    expect(edges.count).toBe(5);
    expect(elementUploads.length).toBe(2);
    expect(wireVao.elements).toBe(edges.buffer as unknown as Buf);
    expect((edges.buffer as unknown as Buf).data!.length).toBe(10);

    expect(buffers.wireEdges()).toBe(edges);
    expect(elementUploads.length).toBe(2);
  });

  it("a technique mesh's wireDraws: none at construction, one edge draw on first read, the same after", () => {
    const { gl, elementUploads } = recordingGl();
    const buffers = new MeshBuffers(gl, mesh);
    const tm = new SharedMeshForTest(gl, buffers);
    expect(elementUploads.length).toBe(1);
    const draws = tm.wireDraws;
    expect(draws).toEqual([{ material: 0, group: 0, first: 0, count: 10 }]);
    expect(tm.wireDraws).toBe(draws);
    expect(elementUploads.length).toBe(2);
  });
});
