// Skinned mesh vertex stage: bind-space attributes -> palette blend -> world -> clip.
precision highp float;
precision highp int;

#include <camera_pars>
#include <skin_pars>

in vec3 a_position;
in vec3 a_normal;
in vec2 a_uv;

out vec3 v_worldPos;
out vec3 v_normal;
out vec2 v_uv;

void main() {
#if defined(NO_SKIN)
  vec3 position = a_position;
  vec3 normal = a_normal;
#else
  mat4 skin = skinMatrix();
  vec3 position = (skin * vec4(a_position, 1.0)).xyz;
  // Palette matrices carry no non-uniform scale (seed 001 §23.3), so the 3x3 part transforms normals.
  vec3 normal = mat3(skin) * a_normal;
#endif
  vec4 world = u_world * vec4(position, 1.0);
  v_worldPos = world.xyz;
  v_normal = mat3(u_world) * normal;
  v_uv = a_uv;
  gl_Position = u_viewProj * world;
}
