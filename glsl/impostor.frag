// Crowd impostors (impostor.vert): the two azimuth cells of the atlas blended, lit as lit.frag's shaded
// colouring lights a mesh (its studio lighting, the instance's tint on the base colour), unshadowed. The atlas
// was cleared to 0 and each cell written with alpha 1, so after mipmapping a texel holds coverage in alpha and
// colour · coverage: colour and normal are divided by it. Coverage under a half is discarded.
precision highp float;

#include <camera_pars>
#include <lighting_pars>

uniform sampler2D u_impostorColour;
uniform sampler2D u_impostorNormal;

in vec2 v_cellA;
in vec2 v_cellB;
in float v_blend;
in vec2 v_yaw;
in vec3 v_crowdTint;
in vec3 v_worldPos;

out vec4 o_colour;

void main() {
  vec4 colour = mix(texture(u_impostorColour, v_cellA), texture(u_impostorColour, v_cellB), v_blend);
  if (colour.a < 0.5) discard;
  vec4 packed = mix(texture(u_impostorNormal, v_cellA), texture(u_impostorNormal, v_cellB), v_blend);
  vec3 local = packed.rgb / packed.a * 2.0 - 1.0;
  // The model-space normal turned by the instance's yaw (crowd_pars crowdTurn).
  vec3 n = normalize(vec3(v_yaw.x * local.x + v_yaw.y * local.z, local.y, v_yaw.x * local.z - v_yaw.y * local.x) + 1e-6);
  vec3 base = colour.rgb / colour.a;
  vec3 albedo = pow(min(base * v_crowdTint, vec3(1.0)), vec3(2.2));
  vec3 viewDir = normalize(u_cameraPos - v_worldPos);
  o_colour = vec4(linearToSrgb(shadeSurface(albedo, n, viewDir, 1.0)), 1.0);
}
