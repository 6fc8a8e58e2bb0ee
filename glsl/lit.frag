// Lit surface: material diffuse colour times its texture (a 1x1 white texture when it has none): `base`, the
// sRGB-encoded base colour and alpha, computed in one place for every colouring.
// Shading of the shaded colouring: the studio (lighting_pars: Blinn-Phong, hemisphere, rim; the default of
//   .x/.m3d models), or with SHADING_PBR the material as authored (pbr_pars: glTF metallic-roughness, image-based
//   ambient light): metallic-roughness map (G roughness, B metallic) × u_metalRough (metallic, roughness),
//   occlusion map R mixed by u_occlusionStrength, emissive map (sRGB) × u_emissive (linear), and the normal
//   map (tangent space, xy × u_normalScale) in the skinned tangent frame (v_tangent, v_bitangent) when the
//   mesh has tangents (u_tangentFrame 1; set per mesh, 0 leaves the interpolated normal).
// Material alpha (glTF alphaMode; SceneUniforms.applyMaterial sets both uniforms):
//   u_alphaCutoff  fragments whose alpha (u_diffuse.a × texture alpha) is below it are discarded, in every
//                  colouring ('mask'; -1 for every other mode, so nothing is)
//   u_opaque       1 writes alpha 1 ('opaque', 'mask'); 0 keeps the alpha ('blend', and .x/.m3d materials)
// Vertex colour (v_colour, linear RGBA; white for a mesh without): multiplies the linearised base colour and the
//   alpha, in both shadings and the crowd colouring, the impostor capture and the cut-out test; the debug views keep
//   their own colours.
// u_alpha scales the result last (the skeleton view's ghost).
// CROWD: the instance's tint (v_crowdTint, crowd_pars.glsl) multiplies the shaded colouring's base colour
//   (sRGB, clamped to 1) before lighting.
// SHADOW_RECEIVE: the shaded colouring's key light is scaled by the shadow map's visibility (shadow_pars);
//   the teaching colourings stay unshadowed (their colours are the point).
// IMPOSTOR_CAPTURE: a crowd impostor's atlas cell (render/crowd-impostor.ts): the unlit base colour (sRGB, the
//   instance's tint left out) to location 0 and the unit normal (model space, · 0.5 + 0.5) to location 1, both
//   with alpha 1 over the atlas's clear of 0; cut-out fragments are discarded. Lit where drawn (impostor.frag).
// SHADOW_DEPTH: the shadow map's caster pass (render/shadow-pass.ts): depth only; a 'mask' material's
//   cut-out fragments are discarded so holes cast no shadow. Nothing is shaded.
// The teaching views replace the material with a debug colour (debug_views.glsl), kept shaded:
//   VIEW_WEIGHTS     v_view.x, the chosen bone's weight, on a blue → red ramp
//   VIEW_INFLUENCES  v_view.y, the vertex's kept influence count, one colour per count
//   VIEW_GROUPS      u_viewGroup, the draw's bone group (set per draw by the renderer), a hashed colour
//   VIEW_DISTORTION  v_view.x, log2 of the vertex's one-ring area posed / at rest: blue shrinks, red grows
//   VIEW_TANGENTS    the skinned world tangent (normal-mapped frame where the material has a normal map), as
//                    0.5 + 0.5 · t (x red, y green, z blue); grey for a mesh without tangents (u_tangentFrame 0).
//                    The T/B/N segments over it are the lines pass's (render/tangent-lines.ts).
precision highp float;

#include <camera_pars>
#include <lighting_pars>
#if defined(SHADOW_RECEIVE)
#include <shadow_pars>
#endif
#if defined(SHADING_PBR)
#include <pbr_pars>
#endif
#if defined(VIEW_WEIGHTS) || defined(VIEW_INFLUENCES) || defined(VIEW_GROUPS) || defined(VIEW_DISTORTION) || defined(VIEW_TANGENTS)
#include <debug_views>
#endif

uniform vec4 u_diffuse;
uniform sampler2D u_diffuseMap;
uniform float u_alpha;
uniform float u_alphaCutoff;
uniform float u_opaque;
#if defined(VIEW_GROUPS)
uniform int u_viewGroup;
#endif

in vec3 v_worldPos;
in vec3 v_normal;
in vec2 v_uv;
in vec4 v_colour;
#if defined(VIEW_WEIGHTS) || defined(VIEW_INFLUENCES) || defined(VIEW_DISTORTION)
in vec2 v_view;
#endif
#if defined(CROWD) && !defined(SHADOW_DEPTH)
in vec3 v_crowdTint;
#endif
#if defined(SHADING_PBR) || defined(VIEW_TANGENTS)
uniform sampler2D u_normalMap;
uniform float u_normalScale;
uniform float u_tangentFrame;
in vec4 v_tangent;
in vec3 v_bitangent;

// The shading normal: `n` (unit, facing the viewer) bent by the normal map in the tangent frame, and the
// frame's tangent (unit, orthogonal to the result's base normal) in `t`. Back faces flip the whole frame.
vec3 mappedNormal(vec3 n, out vec3 t) {
  float side = gl_FrontFacing ? 1.0 : -1.0;
  t = v_tangent.xyz * side;
  t = t - n * dot(n, t);
  float tl = length(t);
  if (u_tangentFrame < 0.5 || tl < 1e-6) return n;
  t /= tl;
  vec3 b = cross(n, t) * (v_tangent.w < 0.0 ? -1.0 : 1.0);
  vec3 m = texture(u_normalMap, v_uv).xyz * 2.0 - 1.0;
  m.xy *= u_normalScale;
  return normalize(t * m.x + b * m.y + n * m.z);
}
#endif
#if defined(SHADING_PBR)
uniform sampler2D u_mrMap;
uniform sampler2D u_occlusionMap;
uniform sampler2D u_emissiveMap;
uniform vec2 u_metalRough;
uniform float u_occlusionStrength;
uniform vec3 u_emissive;
#endif

#if defined(IMPOSTOR_CAPTURE)
layout(location = 0) out vec4 o_colour;
layout(location = 1) out vec4 o_normal;
#else
out vec4 o_colour;
#endif

#if defined(SHADOW_DEPTH)
void main() {
  if (u_diffuse.a * texture(u_diffuseMap, v_uv).a * v_colour.a < u_alphaCutoff) discard;
  o_colour = vec4(0.0);
}
#else
void main() {
  vec3 n = normalize(v_normal);
  vec3 viewDir = normalize(u_cameraPos - v_worldPos);
  // Two-sided: shade back faces (open meshes) with the flipped normal.
  if (!gl_FrontFacing) n = -n;
  vec4 base = u_diffuse * texture(u_diffuseMap, v_uv);
  float alpha = base.a * v_colour.a;
  if (alpha < u_alphaCutoff) discard;
  alpha = mix(alpha, 1.0, u_opaque);
#if defined(VIEW_WEIGHTS)
  o_colour = vec4(shadeFlat(weightRamp(v_view.x), n, u_keyDir), u_alpha);
#elif defined(VIEW_INFLUENCES)
  o_colour = vec4(shadeFlat(influenceColour(v_view.y), n, u_keyDir), u_alpha);
#elif defined(VIEW_GROUPS)
  o_colour = vec4(shadeFlat(groupColour(u_viewGroup), n, u_keyDir), u_alpha);
#elif defined(VIEW_DISTORTION)
  o_colour = vec4(shadeFlat(distortionColour(v_view.x), n, u_keyDir), u_alpha);
#elif defined(VIEW_TANGENTS)
  vec3 t;
  vec3 nm = mappedNormal(n, t);
  // The mapped frame's tangent: t re-orthogonalised against the bent normal.
  vec3 tm = normalize(t - nm * dot(nm, t) + vec3(1e-6, 0.0, 0.0));
  vec3 colour = u_tangentFrame < 0.5 ? vec3(0.55) : tm * 0.5 + 0.5;
  o_colour = vec4(shadeFlat(colour, nm, u_keyDir), u_alpha);
#elif defined(IMPOSTOR_CAPTURE)
  // The vertex colour gamma-encoded, so impostor.frag's pow 2.2 gives the same linear albedo as the mesh draw.
  o_colour = vec4(min(base.rgb, vec3(1.0)) * pow(v_colour.rgb, vec3(1.0 / 2.2)), 1.0);
  o_normal = vec4(n * 0.5 + 0.5, 1.0);
#elif defined(SHADING_PBR)
  vec3 t;
  vec3 nm = mappedNormal(n, t);
  vec4 mr = texture(u_mrMap, v_uv);
  float ao = 1.0 + u_occlusionStrength * (texture(u_occlusionMap, v_uv).r - 1.0);
  vec3 emissive = u_emissive * pow(texture(u_emissiveMap, v_uv).rgb, vec3(2.2));
#if defined(SHADOW_RECEIVE)
  float keyVisibility = shadowVisibility(v_worldPos, n);
#else
  float keyVisibility = 1.0;
#endif
  vec3 c = shadePbr(pow(base.rgb, vec3(2.2)) * v_colour.rgb, u_metalRough.x * mr.b, u_metalRough.y * mr.g, ao, nm, viewDir, keyVisibility) + emissive;
  o_colour = vec4(linearToSrgb(c), alpha * u_alpha);
#else
#if defined(CROWD)
  vec3 albedo = pow(min(base.rgb * v_crowdTint, vec3(1.0)), vec3(2.2)) * v_colour.rgb;
#else
  vec3 albedo = pow(base.rgb, vec3(2.2)) * v_colour.rgb;
#endif
#if defined(SHADOW_RECEIVE)
  float keyVisibility = shadowVisibility(v_worldPos, n);
#else
  float keyVisibility = 1.0;
#endif
  vec3 c = shadeSurface(albedo, n, viewDir, keyVisibility);
  o_colour = vec4(linearToSrgb(c), alpha * u_alpha);
#endif
}
#endif
