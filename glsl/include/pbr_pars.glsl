// Metallic-roughness shading (glTF 2.0 core material, SHADING_PBR): the studio key light (lighting_pars'
// u_keyDir, its colour, scaled by the shadow map's visibility) through Cook-Torrance (GGX distribution,
// height-correlated Smith visibility, Schlick Fresnel), plus image-based light from the generated studio
// environment (render/studio-env.ts): specular from the GGX-prefiltered cube u_envMap at mip
// roughness · u_envMaxLod times the split-sum DFG term (an analytic fit, Karis 2014, no LUT), diffuse from its
// 9 SH coefficients u_envSH (irradiance / π). Ambient (both parts) is scaled by the material's occlusion.
// Linear radiance out; the caller tone-maps (linearToSrgb).
uniform samplerCube u_envMap;
uniform vec3 u_envSH[9];
uniform float u_envMaxLod;

const float PBR_PI = 3.14159265;
// The key light's radiance: the studio's key colour · π, so a white Lambertian surface facing it reflects what
// the studio shading's key term gives it.
const vec3 PBR_KEY = vec3(1.0, 0.93, 0.84) * 0.8 * PBR_PI;

// Irradiance / π at unit normal n (the basis of render/studio-env.ts shBasis).
vec3 envDiffuse(vec3 n) {
  return u_envSH[0] * 0.282095
    + u_envSH[1] * (0.488603 * n.y) + u_envSH[2] * (0.488603 * n.z) + u_envSH[3] * (0.488603 * n.x)
    + u_envSH[4] * (1.092548 * n.x * n.y) + u_envSH[5] * (1.092548 * n.y * n.z)
    + u_envSH[6] * (0.315392 * (3.0 * n.z * n.z - 1.0)) + u_envSH[7] * (1.092548 * n.x * n.z)
    + u_envSH[8] * (0.546274 * (n.x * n.x - n.y * n.y));
}

// Split-sum DFG: (scale, bias) of F0 for the prefiltered specular, a fit in roughness and n·v.
vec2 envDFG(float roughness, float nv) {
  vec4 r = roughness * vec4(-1.0, -0.0275, -0.572, 0.022) + vec4(1.0, 0.0425, 1.04, -0.04);
  float a = min(r.x * r.x, exp2(-9.28 * nv)) * r.x + r.y;
  return vec2(-1.04, 1.04) * a + r.zw;
}

// `base`: linear base colour; `roughness`: perceptual (squared for GGX); `ao`: ambient occlusion 0..1.
vec3 shadePbr(vec3 base, float metallic, float roughness, float ao, vec3 n, vec3 v, float keyVisibility) {
  roughness = clamp(roughness, 0.04, 1.0);
  vec3 f0 = mix(vec3(0.04), base, metallic);
  vec3 diffuseColour = base * (1.0 - metallic);
  float nv = max(dot(n, v), 1e-4);
  // Key light.
  vec3 l = u_keyDir;
  vec3 h = normalize(l + v);
  float nl = max(dot(n, l), 0.0);
  float nh = max(dot(n, h), 0.0);
  float vh = max(dot(v, h), 0.0);
  float a = roughness * roughness;
  float a2 = a * a;
  float dn = nh * nh * (a2 - 1.0) + 1.0;
  float d = a2 / (PBR_PI * dn * dn);
  float vis = 0.5 / max(nl * sqrt(nv * nv * (1.0 - a2) + a2) + nv * sqrt(nl * nl * (1.0 - a2) + a2), 1e-5);
  vec3 f = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);
  vec3 key = ((1.0 - f) * diffuseColour / PBR_PI + f * (d * vis)) * PBR_KEY * nl * keyVisibility;
  // Environment.
  vec3 r = reflect(-v, n);
  vec3 prefiltered = textureLod(u_envMap, r, roughness * u_envMaxLod).rgb;
  vec2 dfg = envDFG(roughness, nv);
  vec3 ambient = (diffuseColour * envDiffuse(n) + prefiltered * (f0 * dfg.x + dfg.y)) * ao;
  return key + ambient;
}
