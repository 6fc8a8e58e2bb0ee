// Skinned mesh vertex stage: bind-space attributes -> morph (morph_pars) -> skin (skin_pars) -> world -> clip.
// NO_SKIN: the attributes are already skinned (software technique: model space, CPU-written, its tangent
//   already re-orthonormalised against the morphed normal before skinning, anim/morph.ts applyMorphs).
// MORPH_SLOTS / MORPH_TEXTURE: morph targets applied first, in bind space (morph_pars).
// Tangent frame (Dawn §4.3.2): a_tangent is the neutral tangent (xyz) and bitangent sign (w). It is
//   re-orthonormalised against the morphed normal (on the cpu morph path a_normal is the CPU-morphed normal,
//   so the same line serves every path), skinned as a direction, and the bitangent rebuilt by a cross
//   product: v_tangent = (unit skinned tangent, sign), v_bitangent = cross(unit normal, tangent) · sign,
//   world space like v_normal. The shading does not read them; transform feedback captures v_tangent.
// CROWD: instanced crowd (with PALETTE_TEXTURE): the instance's palette block, or with CROWD_BAKED its two baked
//   frames, its yaw (position, normal and tangent turned about +y), its floor offset and its tint (v_crowdTint,
//   for lit.frag), from per-instance attributes (crowd_pars).
// SKIN_OUT: the stream-out technique's skinning pass (transform feedback, rasteriser discarded): the morphed and
//   skinned model-space position, normal and tangent (xyz, bitangent sign w) as written by skinVertex, not
//   normalised, in o_position / o_normal / o_tangent; the pass captures them into the buffers every draw reads
//   (src/techniques/stream-out.ts). The rest of main() runs as usual and is not captured.
// SKIN_DDM: the ddm technique's pass (with SKIN_OUT): direct delta mush's skinVertex (ddm_pars) instead of skin_pars.
// Vertex colour (SkinnedMesh.colors, linear RGBA): fetched at gl_VertexID from u_colourTex (render/vertex-colours.ts;
//   a mesh without colours binds a 1x1 white texture, so the index is clamped to the last texel) and passed on
//   as v_colour, which lit.frag multiplies into the base colour. A texture, not an attribute: the morph slots
//   take every attribute location left.
// VIEW_TEXTURE: the weights/influences views' per-vertex data (render/view-data.ts), fetched at gl_VertexID
//   from u_viewTex and passed on as v_view.
precision highp float;
precision highp int;

#include <camera_pars>
#if defined(CROWD)
#include <crowd_pars>
#endif
#if defined(SKIN_DDM)
#include <ddm_pars>
#elif !defined(NO_SKIN)
#include <skin_pars>
#endif
#if defined(MORPH_SLOTS) || defined(MORPH_TEXTURE)
#include <morph_pars>
#endif

in vec3 a_position;
in vec3 a_normal;
in vec2 a_uv;
in vec4 a_tangent;

out vec3 v_worldPos;
out vec3 v_normal;
out vec2 v_uv;
out vec4 v_tangent;
out vec3 v_bitangent;
uniform highp sampler2D u_colourTex;
out vec4 v_colour;
#if defined(VIEW_TEXTURE)
uniform highp sampler2D u_viewTex;
out vec2 v_view;
#endif
#if defined(CROWD)
out vec3 v_crowdTint;
#endif
#if defined(SKIN_OUT)
out vec3 o_position;
out vec3 o_normal;
out vec4 o_tangent;
#endif

// v / |v|, or `fallback` when v has no length (normalize() of a zero vector is undefined).
vec3 unitOr(vec3 v, vec3 fallback) {
  float len = length(v);
  return len > 1e-20 ? v / len : fallback;
}

void main() {
#if defined(CROWD)
  crowdFrame();
#endif
  vec3 bindPosition = a_position;
  vec3 bindNormal = a_normal;
#if defined(MORPH_SLOTS) || defined(MORPH_TEXTURE)
  morphVertex(bindPosition, bindNormal);
#endif
#if defined(NO_SKIN)
  vec3 position = bindPosition;
  vec3 normal = bindNormal;
  vec3 tangent = a_tangent.xyz;
#else
  // Dawn §4.3.2: "orthonormalize the neutral tangent against the new normal" (a_normal is unit, and the
  // morphed normal is normalised by morphVertex).
  vec3 t0 = a_tangent.xyz;
  vec3 bindTangent = unitOr(t0 - dot(t0, bindNormal) * bindNormal, t0);
  vec3 position;
  vec3 normal;
  vec3 tangent;
  skinVertex(bindPosition, bindNormal, bindTangent, position, normal, tangent);
#endif
#if defined(SKIN_OUT)
  o_position = position;
  o_normal = normal;
  o_tangent = vec4(tangent, a_tangent.w);
#endif
#if defined(CROWD)
  position = crowdModelTransform(position);
  position = crowdTurn(position) + crowdOffset();
  normal = crowdTurn(normal);
  tangent = crowdTurn(tangent);
  v_crowdTint = crowdTint();
#endif
  vec4 world = u_world * vec4(position, 1.0);
  v_worldPos = world.xyz;
  v_normal = mat3(u_world) * normal;
  v_uv = a_uv;
  vec3 worldTangent = unitOr(mat3(u_world) * tangent, vec3(1.0, 0.0, 0.0));
  v_tangent = vec4(worldTangent, a_tangent.w);
  v_bitangent = cross(unitOr(v_normal, vec3(0.0, 0.0, 1.0)), worldTangent) * a_tangent.w;
  ivec2 colourSize = textureSize(u_colourTex, 0);
  int colourIndex = min(gl_VertexID, colourSize.x * colourSize.y - 1);
  v_colour = texelFetch(u_colourTex, ivec2(colourIndex % colourSize.x, colourIndex / colourSize.x), 0);
#if defined(VIEW_TEXTURE)
  int viewWidth = textureSize(u_viewTex, 0).x;
  v_view = texelFetch(u_viewTex, ivec2(gl_VertexID % viewWidth, gl_VertexID / viewWidth), 0).xy;
#endif
  gl_Position = u_viewProj * world;
}
