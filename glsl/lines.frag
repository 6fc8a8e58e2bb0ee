// SHADOW_RECEIVE: the floor receiving the key light's shadow: the vertex colour's alpha scaled by how much of
// the key light the floor point loses (1 - visibility; shadow_pars), blended over the grid: a darkening
// where the character's shadow falls, nothing elsewhere.
precision highp float;
#if defined(SHADOW_RECEIVE)
#include <shadow_pars>
in vec3 v_worldPos;
#endif
in vec4 v_colour;
out vec4 o_colour;
uniform float u_round;
void main() {
  if (u_round > 0.5) {
    vec2 d = gl_PointCoord - 0.5;
    if (dot(d, d) > 0.25) discard;
  }
#if defined(SHADOW_RECEIVE)
  o_colour = vec4(v_colour.rgb, v_colour.a * (1.0 - shadowVisibility(v_worldPos, vec3(0.0, 1.0, 0.0))));
#else
  o_colour = v_colour;
#endif
}
