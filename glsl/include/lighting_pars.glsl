// Studio lighting in world space: a sky/ground hemisphere, a warm key light with wrapped diffuse, a cool
// rim from behind, and Blinn-Phong specular. Colours are linear; the caller converts to sRGB.
// `keyVisibility` (shadow_pars.glsl, 1 where no shadow is drawn) scales the key light's diffuse and specular
// only: the hemisphere (ambient) and the rim are never shadowed.
uniform vec3 u_keyDir;      // unit, pointing from the surface towards the key light
uniform vec3 u_rimDir;      // unit, towards the rim light
uniform vec3 u_specular;    // material specular colour
uniform float u_specPower;  // Blinn-Phong exponent

vec3 shadeSurface(vec3 albedo, vec3 n, vec3 viewDir, float keyVisibility) {
  vec3 sky = vec3(0.62, 0.70, 0.82);
  vec3 ground = vec3(0.20, 0.17, 0.15);
  vec3 hemi = mix(ground, sky, 0.5 + 0.5 * n.y) * 0.42;
  float wrap = 0.15;
  float key = max((dot(n, u_keyDir) + wrap) / (1.0 + wrap), 0.0) * keyVisibility;
  vec3 keyColour = vec3(1.0, 0.93, 0.84) * 0.8 * key;
  float rim = pow(1.0 - max(dot(n, viewDir), 0.0), 3.0) * max(dot(n, u_rimDir) * 0.5 + 0.5, 0.0);
  vec3 rimColour = vec3(0.55, 0.65, 0.85) * 0.35 * rim;
  vec3 h = normalize(u_keyDir + viewDir);
  float spec = pow(max(dot(n, h), 0.0), u_specPower) * key;
  return albedo * (hemi + keyColour) + rimColour + u_specular * spec;
}

// Linear radiance -> display: a filmic curve (Narkowicz's ACES fit) so white materials keep their shading
// instead of clipping, then gamma 2.2.
vec3 linearToSrgb(vec3 c) {
  c *= 0.9;
  vec3 mapped = (c * (2.51 * c + 0.03)) / (c * (2.43 * c + 0.59) + 0.14);
  return pow(clamp(mapped, 0.0, 1.0), vec3(1.0 / 2.2));
}
