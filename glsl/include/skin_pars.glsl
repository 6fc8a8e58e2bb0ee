// Skinning inputs and the skin function. The technique picks a define set (src/techniques/*):
//
// Palette storage (one of):
//   PALETTE_UBO        std140 block `Palette { mat4 u_palette[PALETTE_SIZE]; }`, column-major,
//                      palette[k] = model[bones[k]] * invBind[k] (bind space -> model space).
//   PALETTE_UNIFORM    `uniform mat4 u_groupPalette[PALETTE_SIZE]`, the current bone group's matrices,
//                      reloaded per draw (fixed-function world matrices / indexed palette).
//   PALETTE_REGISTERS  `uniform vec4 u_constants[REGISTER_COUNT]`: the vs.1.1 constant file, 3 rows per
//                      4x3 matrix (row r = m[r][0..3]); joints arrive pre-multiplied by 3 (Freidlin).
//   PALETTE_TEXTURE    RGBA32F texture, slot s = 4 texels (columns) at ((s % 256) * 4, s / 256).
//                      With CROWD, every instance's palettes in one texture: instance i's slot s of this
//                      mesh is texture slot i * u_crowdSlots + u_crowdBase + s (gpu/crowd-palette.ts);
//                      with CROWD_BAKED the blend of two baked frames' slots (crowd_pars.glsl).
//   PALETTE_DUAL_QUAT  std140 block `Palette { vec4 u_dualQuat[3 * PALETTE_SIZE]; }`: real, dual, bind-space scale.
//   PALETTE_COR        std140 block `Palette { vec4 u_cor[5 * PALETTE_SIZE]; }` and a per-vertex centre of rotation
//                      (cor_pars.glsl, which declares both and defines skinVertex).
// Joints: a_joints (uvec4, palette slots or group-local slots), or JOINTS_SLOTS: none, weight k belongs to
//   matrix k (fixed-function non-indexed blending).
// Weights: a_weights vec4, the first INFLUENCES renormalised here (sorted descending at load, so the
//   largest is kept; Dawn §4.4); or WEIGHTS_IMPLICIT: a_weights vec3 holds weights already truncated at
//   load and the last used weight is 1 - the sum of the others (Freidlin; D3D's blend-weight formats).
//   LAST_WEIGHT_IMPLICIT derives the last used weight the same way from the renormalised vec4.
// Blend: BLEND_VERTICES transforms by each matrix and blends the results (the SkinnedMesh shaders and
//   fixed-function blending); otherwise the matrices are blended first and applied once (Dawn's
//   accumulated-matrix skinning); PALETTE_DUAL_QUAT blends dual quaternions (Kavan et al.); PALETTE_COR
//   rotates about the vertex's optimized centre of rotation (Le & Hodgins 2016, cor_pars.glsl).
// INFLUENCES (1..4): influences used per vertex, one shader variant per count.
//
// skinVertex(p, n, tv, out position, out normal, out tangent): bind space -> model space. p is a point (w = 1);
// n and tv are directions (w = 0): no translation. The tangent is transformed like an edge of the surface
// (the matrix's 3x3 part, or the dual quaternion's scale then rotation), the normal as each path always did.
// Outputs are not normalised.

#if defined(JOINTS_SLOTS)
#define SKIN_JOINTS uvec4(0u, 1u, 2u, 3u)
#else
in uvec4 a_joints;
#define SKIN_JOINTS a_joints
#endif

#if defined(WEIGHTS_IMPLICIT)
in vec3 a_weights;
#else
in vec4 a_weights;
#endif

#if defined(PALETTE_UBO)
layout(std140) uniform Palette {
  mat4 u_palette[PALETTE_SIZE];
};
mat4 paletteMatrix(uint slot) { return u_palette[slot]; }
#elif defined(PALETTE_UNIFORM)
uniform mat4 u_groupPalette[PALETTE_SIZE];
mat4 paletteMatrix(uint slot) { return u_groupPalette[slot]; }
#elif defined(PALETTE_TEXTURE)
uniform highp sampler2D u_paletteTex;
mat4 paletteSlot(uint slot) {
  ivec2 at = ivec2(int(slot & 255u) * 4, int(slot >> 8u));
  return mat4(
    texelFetch(u_paletteTex, at, 0),
    texelFetch(u_paletteTex, at + ivec2(1, 0), 0),
    texelFetch(u_paletteTex, at + ivec2(2, 0), 0),
    texelFetch(u_paletteTex, at + ivec2(3, 0), 0));
}
mat4 paletteMatrix(uint slot) {
#if defined(CROWD_BAKED)
  if (u_crowdBindPose != 0) return mat4(1.0);
  uint s = slot + uint(crowdBlock + u_crowdBase);
  mat4 m0 = paletteSlot(s);
  mat4 m1 = paletteSlot(s + uint(u_crowdSlots));
  return m0 * (1.0 - crowdBlend) + m1 * crowdBlend;
#elif defined(CROWD)
  return paletteSlot(slot + uint(crowdBlock + u_crowdBase));
#else
  return paletteSlot(slot);
#endif
}
#elif defined(PALETTE_REGISTERS)
uniform vec4 u_constants[REGISTER_COUNT];
#elif defined(PALETTE_DUAL_QUAT)
layout(std140) uniform Palette {
  vec4 u_dualQuat[3 * PALETTE_SIZE];
};
#endif

vec4 skinWeights() {
#if defined(WEIGHTS_IMPLICIT)
#if INFLUENCES == 1
  return vec4(1.0, 0.0, 0.0, 0.0);
#elif INFLUENCES == 2
  return vec4(a_weights.x, 1.0 - a_weights.x, 0.0, 0.0);
#elif INFLUENCES == 3
  return vec4(a_weights.xy, 1.0 - a_weights.x - a_weights.y, 0.0);
#else
  return vec4(a_weights.xyz, 1.0 - dot(a_weights.xyz, vec3(1.0)));
#endif
#else
#if INFLUENCES == 1
  vec4 w = vec4(1.0, 0.0, 0.0, 0.0);
#elif INFLUENCES == 2
  vec4 w = vec4(a_weights.xy / (a_weights.x + a_weights.y), 0.0, 0.0);
#elif INFLUENCES == 3
  vec4 w = vec4(a_weights.xyz / (a_weights.x + a_weights.y + a_weights.z), 0.0);
#else
  vec4 w = a_weights;
#endif
#if defined(LAST_WEIGHT_IMPLICIT) && INFLUENCES == 2
  w.y = 1.0 - w.x;
#elif defined(LAST_WEIGHT_IMPLICIT) && INFLUENCES == 3
  w.z = 1.0 - w.x - w.y;
#elif defined(LAST_WEIGHT_IMPLICIT) && INFLUENCES == 4
  w.w = 1.0 - dot(w.xyz, vec3(1.0));
#endif
  return w;
#endif
}

#if defined(PALETTE_DUAL_QUAT)
// Adds weight w of the dual quaternion at slot j, flipped into the hemisphere of r0 (antipodality), and
// of its scale (not flipped).
void addDualQuat(uint j, float w, vec4 r0, inout vec4 real, inout vec4 dual, inout vec3 scale) {
  vec4 r = u_dualQuat[3u * j];
  float s = dot(r, r0) < 0.0 ? -w : w;
  real += s * r;
  dual += s * u_dualQuat[3u * j + 1u];
  scale += w * u_dualQuat[3u * j + 2u].xyz;
}

void skinVertex(vec3 p, vec3 n, vec3 tv, out vec3 position, out vec3 normal, out vec3 tangent) {
  vec4 w = skinWeights();
  uvec4 j = SKIN_JOINTS;
  vec4 r0 = u_dualQuat[3u * j.x];
  vec4 real = w.x * r0;
  vec4 dual = w.x * u_dualQuat[3u * j.x + 1u];
  vec3 scale = w.x * u_dualQuat[3u * j.x + 2u].xyz;
#if INFLUENCES >= 2
  addDualQuat(j.y, w.y, r0, real, dual, scale);
#endif
#if INFLUENCES >= 3
  addDualQuat(j.z, w.z, r0, real, dual, scale);
#endif
#if INFLUENCES >= 4
  addDualQuat(j.w, w.w, r0, real, dual, scale);
#endif
  // Kavan et al. 2008 §4.2: the bind-space scale first, then the blended rigid transform.
  p *= scale;
  n /= scale;
  tv *= scale;
  float len = length(real);
  real /= len;
  dual /= len;
  vec3 t = 2.0 * (real.w * dual.xyz - dual.w * real.xyz + cross(real.xyz, dual.xyz));
  position = p + 2.0 * cross(real.xyz, cross(real.xyz, p) + real.w * p) + t;
  normal = n + 2.0 * cross(real.xyz, cross(real.xyz, n) + real.w * n);
  // A direction: the rotation only (no translation).
  tangent = tv + 2.0 * cross(real.xyz, cross(real.xyz, tv) + real.w * tv);
}

#elif defined(PALETTE_COR)
#include <cor_pars>

#elif defined(BLEND_VERTICES)
// Transforms p (w = 1), n and tv (w = 0) by influence slot j and adds them with weight w.
void addInfluence(uint j, float w, vec3 p, vec3 n, vec3 tv, inout vec3 position, inout vec3 normal, inout vec3 tangent) {
#if defined(PALETTE_REGISTERS)
  // Freidlin: the index is already slot * 3, the first of the matrix's 3 row registers (dp4 per row).
  int a = int(j);
  vec4 r0 = u_constants[a];
  vec4 r1 = u_constants[a + 1];
  vec4 r2 = u_constants[a + 2];
  vec4 hp = vec4(p, 1.0);
  position += w * vec3(dot(r0, hp), dot(r1, hp), dot(r2, hp));
  normal += w * vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n));
  tangent += w * vec3(dot(r0.xyz, tv), dot(r1.xyz, tv), dot(r2.xyz, tv));
#else
  mat4 m = paletteMatrix(j);
  position += w * (m * vec4(p, 1.0)).xyz;
  normal += w * (mat3(m) * n);
  tangent += w * (mat3(m) * tv);
#endif
}

void skinVertex(vec3 p, vec3 n, vec3 tv, out vec3 position, out vec3 normal, out vec3 tangent) {
  vec4 w = skinWeights();
  uvec4 j = SKIN_JOINTS;
  position = vec3(0.0);
  normal = vec3(0.0);
  tangent = vec3(0.0);
  addInfluence(j.x, w.x, p, n, tv, position, normal, tangent);
#if INFLUENCES >= 2
  addInfluence(j.y, w.y, p, n, tv, position, normal, tangent);
#endif
#if INFLUENCES >= 3
  addInfluence(j.z, w.z, p, n, tv, position, normal, tangent);
#endif
#if INFLUENCES >= 4
  addInfluence(j.w, w.w, p, n, tv, position, normal, tangent);
#endif
}

#else
// Dawn's accumulate_skin: sum_i w_i * palette[j_i], then one multiply per attribute.
mat4 skinMatrix() {
  vec4 w = skinWeights();
  uvec4 j = SKIN_JOINTS;
  mat4 m = w.x * paletteMatrix(j.x);
#if INFLUENCES >= 2
  m += w.y * paletteMatrix(j.y);
#endif
#if INFLUENCES >= 3
  m += w.z * paletteMatrix(j.z);
#endif
#if INFLUENCES >= 4
  m += w.w * paletteMatrix(j.w);
#endif
  return m;
}

void skinVertex(vec3 p, vec3 n, vec3 tv, out vec3 position, out vec3 normal, out vec3 tangent) {
  mat4 m = skinMatrix();
  position = (m * vec4(p, 1.0)).xyz;
  // Palette matrices carry no non-uniform scale (seed 001 §23.3), so the 3x3 part transforms normals.
  normal = mat3(m) * n;
  tangent = mat3(m) * tv;
}
#endif
