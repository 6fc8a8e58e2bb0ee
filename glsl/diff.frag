// The diff view's composite: u_image (the chosen technique) against u_reference (the software technique),
// both RGBA8 colour targets the size of the drawing buffer, read texel for texel. Where the largest channel
// difference exceeds u_threshold the pixel is marked, red for small differences to yellow for large ones
// (difference × u_gain); elsewhere a dimmed grey of the image.
// The reference is software with all 4 influences: truncation shows too (renderer.ts).
precision highp float;
uniform highp sampler2D u_image;
uniform highp sampler2D u_reference;
uniform float u_gain;
uniform float u_threshold;
out vec4 o_colour;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec3 a = texelFetch(u_image, p, 0).rgb;
  vec3 b = texelFetch(u_reference, p, 0).rgb;
  vec3 d = abs(a - b);
  float m = max(d.r, max(d.g, d.b));
  vec3 grey = vec3(dot(a, vec3(0.299, 0.587, 0.114)) * 0.6);
  float k = clamp(m * u_gain, 0.0, 1.0);
  o_colour = vec4(m > u_threshold ? mix(vec3(0.95, 0.08, 0.05), vec3(1.0, 0.92, 0.2), k) : grey, 1.0);
}
