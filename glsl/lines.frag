precision highp float;
in vec4 v_colour;
out vec4 o_colour;
uniform float u_round;
void main() {
  if (u_round > 0.5) {
    vec2 d = gl_PointCoord - 0.5;
    if (dot(d, d) > 0.25) discard;
  }
  o_colour = v_colour;
}
