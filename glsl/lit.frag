// Lit surface: material diffuse colour times its texture (a 1x1 white texture when it has none).
precision highp float;

#include <camera_pars>
#include <lighting_pars>

uniform vec4 u_diffuse;
uniform sampler2D u_diffuseMap;
uniform float u_alpha;

in vec3 v_worldPos;
in vec3 v_normal;
in vec2 v_uv;

out vec4 o_colour;

void main() {
  vec3 n = normalize(v_normal);
  vec3 viewDir = normalize(u_cameraPos - v_worldPos);
  // Two-sided: shade back faces (open meshes) with the flipped normal.
  if (!gl_FrontFacing) n = -n;
  vec4 tex = texture(u_diffuseMap, v_uv);
  vec3 albedo = pow(u_diffuse.rgb * tex.rgb, vec3(2.2));
  vec3 c = shadeSurface(albedo, n, viewDir);
  o_colour = vec4(linearToSrgb(c), u_diffuse.a * tex.a * u_alpha);
}
