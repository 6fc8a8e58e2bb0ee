// Colourings of the teaching views (src/render/views.ts). Every function returns display (sRGB) colour 0..1.

// Turbo (Mikhailov 2019, polynomial fit) from its blue (0.1) to its red (0.92), so both ends stay readable
// under shading: weight 0 blue, 0.5 green-yellow, 1 red.
vec3 weightRamp(float w) {
  float x = 0.1 + 0.82 * clamp(w, 0.0, 1.0);
  const vec4 kr4 = vec4(0.13572138, 4.61539260, -42.66032258, 132.13108234);
  const vec4 kg4 = vec4(0.09140261, 2.19418839, 4.84296658, -14.18503333);
  const vec4 kb4 = vec4(0.10667330, 12.64194608, -60.58204836, 110.36276771);
  const vec2 kr2 = vec2(-152.94239396, 59.28637943);
  const vec2 kg2 = vec2(4.27729857, 2.82956604);
  const vec2 kb2 = vec2(-89.90310912, 27.34824973);
  vec4 v4 = vec4(1.0, x, x * x, x * x * x);
  vec2 v2 = v4.zw * v4.z;
  return vec3(dot(v4, kr4) + dot(v2, kr2), dot(v4, kg4) + dot(v2, kg2), dot(v4, kb4) + dot(v2, kb2));
}

// 1..4 influences; the same colours as INFLUENCE_COLOURS in src/render/views.ts (the legend).
vec3 influenceColour(float count) {
  int n = int(floor(count + 0.5));
  if (n <= 1) return vec3(0.2, 0.45, 1.0);
  if (n == 2) return vec3(0.25, 0.8, 0.3);
  if (n == 3) return vec3(1.0, 0.78, 0.1);
  return vec3(0.95, 0.2, 0.3);
}

// log2 area ratio → blue (shrinks) / white (unchanged) / red (grows), saturating at ±DISTORTION_SCALE (1:
// halved / doubled); the same scale and colours as DISTORTION_SCALE / DISTORTION_COLOURS in src/render/views.ts.
vec3 distortionColour(float log2Ratio) {
  const float DISTORTION_SCALE = 1.0;
  float t = clamp(log2Ratio / DISTORTION_SCALE, -1.0, 1.0);
  vec3 white = vec3(0.96);
  return t < 0.0 ? mix(white, vec3(0.1, 0.3, 1.0), -t) : mix(white, vec3(1.0, 0.15, 0.1), t);
}

// A distinct colour per group index: hues spaced by the golden ratio, two alternating brightness levels.
vec3 groupColour(int g) {
  float h = fract(float(g) * 0.61803399 + 0.12);
  float v = (g % 2 == 0) ? 0.95 : 0.75;
  float s = (g % 3 == 0) ? 0.55 : 0.75;
  vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return v * mix(vec3(1.0), k, s);
}

// Shape without changing the hue: wrapped key light plus a little sky, the colour kept readable in shadow.
vec3 shadeFlat(vec3 colour, vec3 n, vec3 keyDir) {
  float key = max((dot(n, keyDir) + 0.3) / 1.3, 0.0);
  float sky = 0.5 + 0.5 * n.y;
  return colour * (0.38 + 0.5 * key + 0.12 * sky);
}
