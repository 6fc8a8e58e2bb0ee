// Skinning inputs. The technique picks the palette storage with a define:
//   PALETTE_UBO   vs-hlsl: std140 uniform block of PALETTE_SIZE column-major mat4, one per palette slot,
//                 palette[k] = model[bones[k]] * invBind[k] (bind space -> model space).
// INFLUENCES (1..4): how many of the per-vertex (sorted, descending) weights are used; the variant per
// influence count mirrors the SkinnedMesh sample's HLSL shader. Weights are renormalised at load.
in uvec4 a_joints;
in vec4 a_weights;

#if defined(PALETTE_UBO)
layout(std140) uniform Palette {
  mat4 u_palette[PALETTE_SIZE];
};
mat4 paletteMatrix(uint slot) { return u_palette[slot]; }
#endif

// The first INFLUENCES weights, renormalised to sum 1. Weights are sorted descending at load, so the
// largest (x) is never 0 and truncation keeps the strongest bones (Dawn, GPU Gems ch. 4 §4.4).
vec4 skinWeights() {
#if INFLUENCES == 1
  return vec4(1.0, 0.0, 0.0, 0.0);
#elif INFLUENCES == 2
  return vec4(a_weights.xy / (a_weights.x + a_weights.y), 0.0, 0.0);
#elif INFLUENCES == 3
  return vec4(a_weights.xyz / (a_weights.x + a_weights.y + a_weights.z), 0.0);
#else
  return a_weights;
#endif
}

// Blended matrix of the vertex's influences: sum_i w_i * palette[j_i].
mat4 skinMatrix() {
  vec4 w = skinWeights();
  mat4 m = w.x * paletteMatrix(a_joints.x);
#if INFLUENCES >= 2
  m += w.y * paletteMatrix(a_joints.y);
#endif
#if INFLUENCES >= 3
  m += w.z * paletteMatrix(a_joints.z);
#endif
#if INFLUENCES >= 4
  m += w.w * paletteMatrix(a_joints.w);
#endif
  return m;
}
