/**
 * The distortion view's per-vertex data: the log₂ one-ring area ratios the quality module computes per mesh
 * vertex (src/quality/live.ts, from the CPU reference of the technique on screen), laid out as the view
 * texture of a technique vertex array (view-data.ts: `stride` = VIEW_DATA_FLOATS floats per technique
 * vertex, x read by lit.frag's VIEW_DISTORTION). No GL here: ViewData.prepareValues uploads what this fills.
 *
 * fillDistortion: out[v · stride] = logs[sourceVertex[v]] (technique vertex v copies that mesh vertex), the
 * other floats of the vertex 0. No allocation.
 */
export function fillDistortion(logs: Float32Array, sourceVertex: Uint32Array, stride: number, out: Float32Array): void {
  for (let v = 0; v < sourceVertex.length; v++) {
    const o = v * stride;
    out[o] = logs[sourceVertex[v]!] ?? 0;
    for (let k = 1; k < stride; k++) out[o + k] = 0;
  }
}
