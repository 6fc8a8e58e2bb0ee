// Crowd mode (CROWD, skinned.vert, with PALETTE_TEXTURE): N instances of the model in one instanced draw per
// subset. Included before skin_pars: its paletteMatrix reads crowdSlot / crowdBlend.
// Per-instance attributes (divisor 1, src/gpu/crowd-instances.ts): a_crowdPlace = (model-space offset x,
// offset z, clip time offset in seconds, speed), a_crowdClip = the baked clip's index, a_crowdLook = (yaw in
// radians about +y, tint r, g, b). The skinned vertex is turned by the yaw about the model origin
// (crowdTurn: position, normal and tangent), then the offset, a model-space translation, is added: the
// instance's grid cell or plaza place (src/render/crowd-instance-data.ts; offset and yaw 0 in wander mode,
// whose palettes carry the place and heading). The tint multiplies the material's base colour (lit.frag,
// v_crowdTint; white with crowdTint=0). Instances arrive compacted (culled ones left out).
// Palette blocks of u_crowdSlots mat4 slots; mesh slot s is block slot u_crowdBase + s.
//   cpu path: block gl_InstanceID of the per-frame palette texture (src/gpu/crowd-palette.ts).
//   CROWD_BAKED: NVIDIA's SkinnedInstancing. The baked texture holds every clip's palettes at fixed steps
//     (src/anim/crowd-bake.ts, whose instanceClipTime and bakedFrame this repeats): clip time
//     = u_crowdTime · speed + offset wrapped into [0, duration), frame f = time · rate, blocks k = ⌊f⌋ (at
//     most frames − 1) and k + 1 blended by f − k, a linear blend of the matrices. u_crowdBindPose: identity palette.
in vec4 a_crowdPlace;
in float a_crowdClip;
in vec4 a_crowdLook;
uniform int u_crowdSlots;
uniform int u_crowdBase;
// Per model of a mixed crowd (src/render/crowd-mix.ts standingTransform): uniform scale x, then translation yzw,
// applied to the skinned position before the instance's offset; (1, 0, 0, 0) for a crowd of one model.
uniform vec4 u_crowdModel;
#if defined(CROWD_BAKED)
// Per clip: (global index of frame 0, intervals, duration s, intervals per second).
uniform vec4 u_bakeClips[BAKE_CLIPS];
uniform float u_crowdTime;
uniform int u_crowdBindPose;
#endif

// First slot of this instance's palette block (baked: of frame k), and the weight of frame k + 1.
int crowdBlock;
float crowdBlend;

#if defined(CROWD_BAKED)
// The instance's clip time in [0, duration) for its clip's table entry c (0 for a clip without duration).
float crowdClipTime(vec4 c) {
  if (c.z <= 0.0) return 0.0;
  float x = u_crowdTime * a_crowdPlace.w + a_crowdPlace.z;
  return x - c.z * floor(x / c.z);
}
#endif

void crowdFrame() {
#if defined(CROWD_BAKED)
  vec4 c = u_bakeClips[int(a_crowdClip + 0.5)];
  float time = crowdClipTime(c);
  float f = time * c.w;
  float k = clamp(floor(f), 0.0, c.y - 1.0);
  crowdBlock = (int(c.x + 0.5) + int(k)) * u_crowdSlots;
  crowdBlend = clamp(f - k, 0.0, 1.0);
#else
  crowdBlock = gl_InstanceID * u_crowdSlots;
  crowdBlend = 0.0;
#endif
}

vec3 crowdModelTransform(vec3 p) {
  return u_crowdModel.x * p + u_crowdModel.yzw;
}

vec3 crowdOffset() {
  return vec3(a_crowdPlace.x, 0.0, a_crowdPlace.y);
}

// v turned by the instance's yaw about +y: (x, z) -> (cos x + sin z, -sin x + cos z), as crowd-instance-data.ts.
vec3 crowdTurn(vec3 v) {
  float c = cos(a_crowdLook.x);
  float s = sin(a_crowdLook.x);
  return vec3(c * v.x + s * v.z, v.y, c * v.z - s * v.x);
}

vec3 crowdTint() {
  return a_crowdLook.yzw;
}
