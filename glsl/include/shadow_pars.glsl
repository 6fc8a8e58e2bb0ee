// Receiving the key light's shadow (render/shadow-map.ts): the point, moved along its normal by a few map
// texels (normal offset: no acne on surfaces at a grazing angle to the light), goes to the map's texture space
// through u_shadowMatrix (world -> [0,1]^3); 3x3 comparisons one texel apart, each a hardware bilinear 2x2
// PCF (LINEAR filtering on a comparison sampler), averaged. Outside the map's window: lit.
// u_shadowParams: x one texel in uv, y the normal offset in world units, z a constant depth bias.
uniform highp sampler2DShadow u_shadowMap;
uniform mat4 u_shadowMatrix;
uniform vec3 u_shadowParams;

// 1: fully lit by the key light, 0: fully in shadow. `normal`: unit, world space, facing the viewer's side.
float shadowVisibility(vec3 worldPos, vec3 normal) {
  vec4 p = u_shadowMatrix * vec4(worldPos + normal * u_shadowParams.y, 1.0);
  vec3 c = p.xyz / p.w;
  if (c.x < 0.0 || c.x > 1.0 || c.y < 0.0 || c.y > 1.0) return 1.0;
  float ref = min(c.z - u_shadowParams.z, 1.0);
  float t = u_shadowParams.x;
  float sum = 0.0;
  for (int y = -1; y <= 1; y++) {
    for (int x = -1; x <= 1; x++) {
      sum += texture(u_shadowMap, vec3(c.xy + vec2(float(x), float(y)) * t, ref));
    }
  }
  return sum / 9.0;
}
