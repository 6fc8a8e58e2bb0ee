// World-space coloured lines and points (skeleton overlay, floor grid).
// SHADOW_RECEIVE: the floor's shadow-receiving quad (LinesPass.drawFloor): passes the world position on.
precision highp float;
#include <camera_pars>
in vec3 a_position;
in vec4 a_colour;
uniform float u_pointSize;
out vec4 v_colour;
#if defined(SHADOW_RECEIVE)
out vec3 v_worldPos;
#endif
void main() {
  v_colour = a_colour;
  vec4 world = u_world * vec4(a_position, 1.0);
#if defined(SHADOW_RECEIVE)
  v_worldPos = world.xyz;
#endif
  gl_Position = u_viewProj * world;
  gl_PointSize = u_pointSize;
}
