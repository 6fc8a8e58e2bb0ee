// Crowd impostors (render/crowd-impostor-pass.ts): the far field's instances as one camera-facing quad each,
// textured from the model's atlas of its clip (render/impostor-cells.ts: IMPOSTOR_AZIMUTHS directions at each
// of the elevations in u_impostorElevations, u_impostorGrid.z frames; this repeats its cellOf).
// Per-vertex a_uv: the quad's corner in [-1, 1]². Per instance: crowd_pars's attributes (offset, clip time
// offset, speed, clip, yaw, tint), as the meshes read them, with CROWD_BAKED's clip table and clock.
// u_impostorSphere: the clip's bounding sphere in the model's own units (the atlas's framing); it is moved like
// a vertex (u_crowdModel, the yaw, the offset). The quad is that sphere's square facing the camera, built as
// the capture's view is: right = unit(up × d), up' = d × right for d the unit direction to the camera.
// Out: the two azimuth cells' atlas coordinates and their blend, the yaw (to turn the atlas's model-space
// normals), the tint and the world position.
precision highp float;
precision highp int;

#include <camera_pars>
#include <crowd_pars>

in vec2 a_uv;

uniform vec4 u_impostorSphere;
// (azimuths, elevation rings, frames, cell size in atlas units: 1 / columns), and (1 / frames).
uniform vec4 u_impostorGrid;
uniform vec2 u_impostorElevations;

out vec2 v_cellA;
out vec2 v_cellB;
out float v_blend;
out vec2 v_yaw;
out vec3 v_crowdTint;
out vec3 v_worldPos;

void main() {
  vec3 centre = crowdTurn(crowdModelTransform(u_impostorSphere.xyz)) + crowdOffset();
  float radius = u_impostorSphere.w * u_crowdModel.x;
  vec3 d = normalize(u_cameraPos - centre);
  vec3 right = normalize(cross(vec3(0.0, 1.0, 0.0), d));
  vec3 up = cross(d, right);
  vec3 world = centre + radius * (a_uv.x * right + a_uv.y * up);

  // The view direction in the model's own frame: the yaw undone (crowdTurn's inverse).
  float c = cos(a_crowdLook.x);
  float s = sin(a_crowdLook.x);
  vec3 local = vec3(c * d.x - s * d.z, d.y, s * d.x + c * d.z);
  float azimuths = u_impostorGrid.x;
  float a = atan(local.x, local.z) / 6.28318530718 * azimuths;
  a = a - azimuths * floor(a / azimuths);
  float k0 = floor(a);
  float k1 = mod(k0 + 1.0, azimuths);
  float elevation = asin(clamp(local.y, -1.0, 1.0));
  float ring = abs(elevation - u_impostorElevations.y) < abs(elevation - u_impostorElevations.x) ? 1.0 : 0.0;
  vec4 clip = u_bakeClips[int(a_crowdClip + 0.5)];
  float frames = u_impostorGrid.z;
  float frame = clip.z > 0.0 ? min(frames - 1.0, floor(crowdClipTime(clip) / clip.z * frames)) : 0.0;

  vec2 inCell = a_uv * 0.5 + 0.5;
  vec2 cell = vec2(u_impostorGrid.w, u_impostorGrid.y);
  v_cellA = (vec2(ring * azimuths + k0, frame) + inCell) * cell;
  v_cellB = (vec2(ring * azimuths + k1, frame) + inCell) * cell;
  v_blend = a - k0;
  v_yaw = vec2(c, s);
  v_crowdTint = crowdTint();
  v_worldPos = world;
  gl_Position = u_viewProj * vec4(world, 1.0);
}
