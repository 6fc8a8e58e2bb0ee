/**
 * The smoothing graph of direct delta mush (ddm-precompute.ts): a mesh's vertices welded by position into nodes,
 * and the nodes' edge adjacency, for the uniform ("umbrella") Laplacian.
 *
 * Contract
 * - Weld: vertices whose three bind-space coordinates are bit-for-bit equal share one node (the twist rig's
 *   caps and a UV seam duplicate vertices at one position; the smoothing must cross them). `nodeOf[v]` is the
 *   node of vertex v; nodes are numbered in the order of their first vertex. `weld = false` keeps one node per
 *   vertex and no edges (the identity smoothing).
 * - Adjacency (CSR): node m's neighbours are `neighbours[offsets[m] .. offsets[m + 1])`, distinct, ascending,
 *   never m itself: the nodes it shares a triangle edge with. A node of no (non-degenerate) triangle has none.
 * - The uniform Laplacian's random-walk form is L̄ = I − D⁻¹A (A this adjacency, D its degrees); one explicit
 *   smoothing step with step size s is x ← (I − s·L̄) x, i.e. x_m ← (1 − s)·x_m + s·mean(x over m's
 *   neighbours), and it leaves a node with no neighbours as it is.
 * Pure, no DOM. Allocates its outputs.
 */

export interface DdmGraph {
  readonly nodeCount: number;
  /** Vertex → node. */
  readonly nodeOf: Uint32Array;
  /** nodeCount + 1 offsets into `neighbours`. */
  readonly offsets: Uint32Array;
  readonly neighbours: Uint32Array;
}

export function ddmGraph(positions: Float32Array, vertexCount: number, indices: Uint32Array, weld: boolean): DdmGraph {
  const nodeOf = new Uint32Array(vertexCount);
  let nodeCount = 0;
  if (weld) {
    const bits = new Uint32Array(positions.buffer, positions.byteOffset, vertexCount * 3);
    const seen = new Map<string, number>();
    for (let v = 0; v < vertexCount; v++) {
      const key = `${bits[v * 3]},${bits[v * 3 + 1]},${bits[v * 3 + 2]}`;
      const node = seen.get(key);
      if (node === undefined) {
        seen.set(key, nodeCount);
        nodeOf[v] = nodeCount++;
      } else nodeOf[v] = node;
    }
  } else {
    for (let v = 0; v < vertexCount; v++) nodeOf[v] = v;
    return { nodeCount: vertexCount, nodeOf, offsets: new Uint32Array(vertexCount + 1), neighbours: new Uint32Array(0) };
  }
  // Each triangle corner adds its two other corners (an upper bound, deduplicated below).
  const count = new Uint32Array(nodeCount + 1);
  const triangles = Math.floor(indices.length / 3);
  for (let t = 0; t < triangles; t++) {
    for (let c = 0; c < 3; c++) count[nodeOf[indices[t * 3 + c]!]!]! += 2;
  }
  const start = new Uint32Array(nodeCount + 1);
  for (let m = 0; m < nodeCount; m++) start[m + 1] = start[m]! + count[m]!;
  const raw = new Uint32Array(start[nodeCount]!);
  const fill = start.slice(0, nodeCount);
  for (let t = 0; t < triangles; t++) {
    const a = nodeOf[indices[t * 3]!]!, b = nodeOf[indices[t * 3 + 1]!]!, c = nodeOf[indices[t * 3 + 2]!]!;
    raw[fill[a]!++] = b;
    raw[fill[a]!++] = c;
    raw[fill[b]!++] = c;
    raw[fill[b]!++] = a;
    raw[fill[c]!++] = a;
    raw[fill[c]!++] = b;
  }
  const offsets = new Uint32Array(nodeCount + 1);
  let out = 0;
  for (let m = 0; m < nodeCount; m++) {
    const list = raw.subarray(start[m]!, start[m + 1]!);
    list.sort();
    offsets[m] = out;
    let last = -1;
    for (let k = 0; k < list.length; k++) {
      const n = list[k]!;
      if (n === m || n === last) continue;
      raw[out++] = n;
      last = n;
    }
  }
  offsets[nodeCount] = out;
  return { nodeCount, nodeOf, offsets, neighbours: raw.slice(0, out) };
}
