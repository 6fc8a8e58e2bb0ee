// Full-screen triangle from gl_VertexID (no attributes): the diff view's composite pass.
precision highp float;
void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  gl_Position = vec4(p, 0.0, 1.0);
}
