// Skinned mesh vertex stage: bind-space attributes -> skin (skin_pars) -> world -> clip.
// NO_SKIN: the attributes are already skinned (software technique: model space, CPU-written).
// MORPH_SLOTS / MORPH_TEXTURE: morph targets applied first, in bind space (morph_pars).
// VIEW_ATTRIB (a location): the weights/influences views' per-vertex data (render/view-data.ts), passed on as v_view.
precision highp float;
precision highp int;

#include <camera_pars>
#if !defined(NO_SKIN)
#include <skin_pars>
#endif
#if defined(MORPH_SLOTS) || defined(MORPH_TEXTURE)
#include <morph_pars>
#endif

in vec3 a_position;
in vec3 a_normal;
in vec2 a_uv;

out vec3 v_worldPos;
out vec3 v_normal;
out vec2 v_uv;
#if defined(VIEW_ATTRIB)
layout(location = VIEW_ATTRIB) in vec2 a_view;
out vec2 v_view;
#endif

void main() {
  vec3 bindPosition = a_position;
  vec3 bindNormal = a_normal;
#if defined(MORPH_SLOTS) || defined(MORPH_TEXTURE)
  morphVertex(bindPosition, bindNormal);
#endif
#if defined(NO_SKIN)
  vec3 position = bindPosition;
  vec3 normal = bindNormal;
#else
  vec3 position;
  vec3 normal;
  skinVertex(bindPosition, bindNormal, position, normal);
#endif
  vec4 world = u_world * vec4(position, 1.0);
  v_worldPos = world.xyz;
  v_normal = mat3(u_world) * normal;
  v_uv = a_uv;
#if defined(VIEW_ATTRIB)
  v_view = a_view;
#endif
  gl_Position = u_viewProj * world;
}
