// Morph targets before skinning, in bind space (GPU Gems ch. 4, Dawn §4.3): p += Σ w·dp, n = normalize(n + Σ w·dn).
// The renderer picks one define (src/render/morph-runtime.ts); without either, the mesh is drawn as stored
// (no targets, or the `cpu` path, which writes the morphed mesh into the neutral attributes).
// Only position and normal are morphed (Dawn's 5 pairs fill locations 6..15); skinned.vert then
// re-orthonormalises the neutral tangent (location 5) against the morphed normal (Dawn §4.3.2).
//
// MORPH_SLOTS   Dawn's method: 5 (position diff, normal diff) attribute pairs at locations 6..15
//               (a_morphPosition0/a_morphNormal0 … 4; programs.ts ATTRIB), re-pointed every frame at the
//               regions of the 5 heaviest targets in the mesh's dense delta buffer (gpu/morph-buffers.ts).
//               u_morphSlotWeights: slots 0..3 in xyzw, u_morphSlotWeight4: slot 4. An unused slot has
//               weight 0 and a disabled array (constant 0 attribute).
// MORPH_TEXTURE every non-zero target: deltas in an RGBA32F texture (u_morphTex) in mesh vertex order, 2
//               texels per vertex per target (dp, dn); a_morphVertex is the mesh vertex a technique
//               vertex copies (partitioned techniques duplicate vertices). u_morphCount active targets
//               (≤ MORPH_MAX), their first texels in u_morphBase and weights in u_morphWeight, 4 per vec4.

#if defined(MORPH_SLOTS)
in vec3 a_morphPosition0;
in vec3 a_morphNormal0;
in vec3 a_morphPosition1;
in vec3 a_morphNormal1;
in vec3 a_morphPosition2;
in vec3 a_morphNormal2;
in vec3 a_morphPosition3;
in vec3 a_morphNormal3;
in vec3 a_morphPosition4;
in vec3 a_morphNormal4;
uniform vec4 u_morphSlotWeights;
uniform float u_morphSlotWeight4;

void morphVertex(inout vec3 p, inout vec3 n) {
  vec4 w = u_morphSlotWeights;
  // Dawn: one multiply-add per difference vector.
  p += w.x * a_morphPosition0 + w.y * a_morphPosition1 + w.z * a_morphPosition2 + w.w * a_morphPosition3
     + u_morphSlotWeight4 * a_morphPosition4;
  n += w.x * a_morphNormal0 + w.y * a_morphNormal1 + w.z * a_morphNormal2 + w.w * a_morphNormal3
     + u_morphSlotWeight4 * a_morphNormal4;
  n = normalize(n);
}
#elif defined(MORPH_TEXTURE)
in uint a_morphVertex;
uniform highp sampler2D u_morphTex;
uniform int u_morphCount;
uniform ivec4 u_morphBase[MORPH_MAX / 4];
uniform vec4 u_morphWeight[MORPH_MAX / 4];

vec3 morphTexel(int index, int width) {
  return texelFetch(u_morphTex, ivec2(index % width, index / width), 0).xyz;
}

void morphVertex(inout vec3 p, inout vec3 n) {
  int width = textureSize(u_morphTex, 0).x;
  int v = int(a_morphVertex) * 2;
  for (int i = 0; i < MORPH_MAX; i++) {
    if (i >= u_morphCount) break;
    int at = u_morphBase[i >> 2][i & 3] + v;
    float w = u_morphWeight[i >> 2][i & 3];
    p += w * morphTexel(at, width);
    n += w * morphTexel(at + 1, width);
  }
  n = normalize(n);
}
#endif
