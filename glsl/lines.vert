// World-space coloured lines and points (skeleton overlay, floor grid).
precision highp float;
#include <camera_pars>
in vec3 a_position;
in vec4 a_colour;
uniform float u_pointSize;
out vec4 v_colour;
void main() {
  v_colour = a_colour;
  gl_Position = u_viewProj * u_world * vec4(a_position, 1.0);
  gl_PointSize = u_pointSize;
}
