// Optimized centres of rotation (Le & Hodgins 2016): skinVertex of the `cor` technique (src/techniques/cor.ts),
// included by skin_pars under PALETTE_COR after skinWeights() and SKIN_JOINTS. Operation for operation the CPU
// reference src/deform/cor-skin.ts (skinMeshCor, skinTangentsCor); its contract has the maths.
//   Palette  std140 block `Palette { vec4 u_cor[5 * PALETTE_SIZE]; }`, per slot (buildCorPalette): [0] rotation
//            quaternion (x, y, z, w), [1] bind-space axis scale (sx, sy, sz, 0), [2..4] rows 0..2 of the 3x4
//            palette matrix (row r = m[r][0..3]).
//   Centre   per vertex, bind space (src/deform/cor-centres.ts): u_corCentres, an RGBA32F texture on
//            COR_TEXTURE_UNIT (gpu/programs.ts), technique vertex v at texel (v % width, v / width), fetched at
//            gl_VertexID (the technique vertex on every path: render/view-data.ts says why). COR_CENTRE may be
//            defined to another vec3 expression (the Node tests evaluate this chunk with the centre given).
//   p' = q · (s ∘ (p − c)) · q* + L·(c, 1); n' = q · (n / s) · q*; t' = q · (s ∘ t) · q*, where q = normalised
//   Σ ±wₖ qₖ (each flipped into q₀'s hemisphere when dot < 0; 180°, dot = 0, is not flipped), s = Σ wₖ sₖ and
//   L = Σ wₖ Mₖ. Morph targets move p and n before this (bind space); the centre does not move.

layout(std140) uniform Palette {
  vec4 u_cor[5 * PALETTE_SIZE];
};

#if !defined(COR_CENTRE)
uniform highp sampler2D u_corCentres;
vec3 corCentreFetch() {
  int width = textureSize(u_corCentres, 0).x;
  return texelFetch(u_corCentres, ivec2(gl_VertexID % width, gl_VertexID / width), 0).xyz;
}
#define COR_CENTRE corCentreFetch()
#endif

// v rotated by the unit quaternion q: v + 2 q.xyz × (q.xyz × v + q.w v).
vec3 corRotate(vec4 q, vec3 v) {
  return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

// Adds influence slot j with weight w: its quaternion flipped into q0's hemisphere, its scale and matrix rows.
void addCor(uint j, float w, vec4 q0, inout vec4 q, inout vec3 scale, inout vec4 row0, inout vec4 row1, inout vec4 row2) {
  uint o = 5u * j;
  vec4 r = u_cor[o];
  q += (dot(r, q0) < 0.0 ? -w : w) * r;
  scale += w * u_cor[o + 1u].xyz;
  row0 += w * u_cor[o + 2u];
  row1 += w * u_cor[o + 3u];
  row2 += w * u_cor[o + 4u];
}

void skinVertex(vec3 p, vec3 n, vec3 tv, out vec3 position, out vec3 normal, out vec3 tangent) {
  vec4 w = skinWeights();
  uvec4 j = SKIN_JOINTS;
  vec4 q0 = u_cor[5u * j.x];
  vec4 q = vec4(0.0);
  vec3 scale = vec3(0.0);
  vec4 row0 = vec4(0.0);
  vec4 row1 = vec4(0.0);
  vec4 row2 = vec4(0.0);
  addCor(j.x, w.x, q0, q, scale, row0, row1, row2);
#if INFLUENCES >= 2
  addCor(j.y, w.y, q0, q, scale, row0, row1, row2);
#endif
#if INFLUENCES >= 3
  addCor(j.z, w.z, q0, q, scale, row0, row1, row2);
#endif
#if INFLUENCES >= 4
  addCor(j.w, w.w, q0, q, scale, row0, row1, row2);
#endif
  q /= length(q);
  vec3 c = COR_CENTRE;
  vec4 hc = vec4(c, 1.0);
  // The linear blend's image of the centre is the translation.
  vec3 centre = vec3(dot(row0, hc), dot(row1, hc), dot(row2, hc));
  position = corRotate(q, (p - c) * scale) + centre;
  normal = corRotate(q, n / scale);
  // A direction: scale and rotation only.
  tangent = corRotate(q, tv * scale);
}
