// One colour, for wireframes.
precision highp float;
uniform vec4 u_colour;
out vec4 o_colour;
void main() {
  o_colour = u_colour;
}
