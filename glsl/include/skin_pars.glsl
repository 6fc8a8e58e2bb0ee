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

// Blended matrix of the vertex's influences: sum_i w_i * palette[j_i].
mat4 skinMatrix() {
  mat4 m = a_weights.x * paletteMatrix(a_joints.x);
#if INFLUENCES >= 2
  m += a_weights.y * paletteMatrix(a_joints.y);
#endif
#if INFLUENCES >= 3
  m += a_weights.z * paletteMatrix(a_joints.z);
#endif
#if INFLUENCES >= 4
  m += a_weights.w * paletteMatrix(a_joints.w);
#endif
  return m;
}
