// Crowd mode (CROWD, skinned.vert): N instances of the model in one instanced draw per subset. Instance gl_InstanceID sits
// at column i % u_crowdColumns, row i / u_crowdColumns of a grid u_crowdSpacing model units apart on the
// floor plane (x, z; y up), columns from +x to -x and rows from +z to -z (front to back for the default
// camera), centred on the model's origin: src/render/crowd-layout.ts crowdOffset, which
// this repeats. The offset is a model-space translation added after skinning.
uniform int u_crowdColumns;
uniform int u_crowdRows;
uniform float u_crowdSpacing;

vec3 crowdOffset() {
  int c = gl_InstanceID % u_crowdColumns;
  int r = gl_InstanceID / u_crowdColumns;
  return vec3((float(u_crowdColumns - 1) * 0.5 - float(c)) * u_crowdSpacing, 0.0,
              (float(u_crowdRows - 1) * 0.5 - float(r)) * u_crowdSpacing);
}
