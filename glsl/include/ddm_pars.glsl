// SKIN_DDM: direct delta mush, variant 0 (Le & Lewis 2019), the `ddm` technique's transform-feedback pass
// (src/techniques/ddm.ts). src/deform/ddm-runtime.ts and ddm-polar.ts are its CPU mirror, step for step.
//
// Inputs
//   u_paletteTex  the palette (PALETTE_TEXTURE's layout: slot s = 4 texels at ((s % 256) * 4, s / 256)).
//   u_ddmTex      RGBA32F, DDM_ROW_VERTICES vertices per row, 24 texels per vertex, at gl_VertexID:
//                 slot s (0..7) = texels 3s, 3s+1, 3s+2 = (Ω00 Ω01 Ω02 Ω03) (Ω11 Ω12 Ω13 Ω22) (Ω23 Ω33 bone c)
//                 with Ω the centred 4×4 of ddm-precompute.ts (upper triangle) and c = the vertex's centre's
//                 x, y, z in the slots 0, 1, 2 (0 in the others). Slots are sorted by Ω33, unused ones are 0.
// skinVertex(p, n, tv, ...): Q = Σ_s (M_s with translation M_s·(c, 1)) Ω_s over slots until Ω33 = 0, divided by
//   Q33; s = Σ_s Ω33_s S_s / Q33 with S_s = ddmScale(M_s) (column lengths, z negated where M_s mirrors);
//   C = (Q₃ₓ₃ − q p̄ᵀ)·diag(s) (q = Q's last column, p̄ its last row); R = ddmPolar(C, the first slot's 3×3 · S);
//   position = R (s ⊙ (p − c − p̄)) + q, normal = normalize(R (n ⊘ s)), tangent = normalize(R (s ⊙ tv)).

#define DDM_ROW_VERTICES 64
#define DDM_TEXELS 24
#define DDM_JACOBI_SWEEPS 6

uniform highp sampler2D u_paletteTex;
uniform highp sampler2D u_ddmTex;

mat4 ddmPalette(uint slot) {
  ivec2 at = ivec2(int(slot & 255u) * 4, int(slot >> 8u));
  return mat4(
    texelFetch(u_paletteTex, at, 0),
    texelFetch(u_paletteTex, at + ivec2(1, 0), 0),
    texelFetch(u_paletteTex, at + ivec2(2, 0), 0),
    texelFetch(u_paletteTex, at + ivec2(3, 0), 0));
}

vec4 ddmTexel(int t) {
  return texelFetch(u_ddmTex, ivec2((gl_VertexID % DDM_ROW_VERTICES) * DDM_TEXELS + t, gl_VertexID / DDM_ROW_VERTICES), 0);
}

// One Jacobi rotation zeroing a[p][q] of the symmetric a; v collects the rotations (eigenvectors in its columns).
void ddmJacobi(inout mat4 a, inout mat4 v, int p, int q) {
  float apq = a[q][p];
  if (abs(apq) <= 1e-9) return;
  float theta = (a[q][q] - a[p][p]) / (2.0 * apq);
  float t = (theta >= 0.0 ? 1.0 : -1.0) / (abs(theta) + sqrt(theta * theta + 1.0));
  float cs = 1.0 / sqrt(t * t + 1.0);
  float sn = t * cs;
  vec4 ap = a[p];
  vec4 aq = a[q];
  a[p] = cs * ap - sn * aq;
  a[q] = sn * ap + cs * aq;
  for (int k = 0; k < 4; k++) {
    float apk = a[k][p];
    float aqk = a[k][q];
    a[k][p] = cs * apk - sn * aqk;
    a[k][q] = sn * apk + cs * aqk;
  }
  vec4 vp = v[p];
  vec4 vq = v[q];
  v[p] = cs * vp - sn * vq;
  v[q] = sn * vp + cs * vq;
}

// The proper rotation maximising tr(Rᵀ C) (Horn's quaternion: N(C)'s top eigenvector), C scaled to unit norm and
// tie-broken by 1e-6 of the unit-norm `warm`.
mat3 ddmPolar(mat3 c, mat3 warm) {
  float cn = dot(c[0], c[0]) + dot(c[1], c[1]) + dot(c[2], c[2]);
  float wn = dot(warm[0], warm[0]) + dot(warm[1], warm[1]) + dot(warm[2], warm[2]);
  mat3 s = c * (cn > 0.0 ? inversesqrt(cn) : 0.0) + warm * (wn > 0.0 ? 1e-6 * inversesqrt(wn) : 0.0);
  // S_xy = s[x][y].
  float sxx = s[0][0], sxy = s[0][1], sxz = s[0][2];
  float syx = s[1][0], syy = s[1][1], syz = s[1][2];
  float szx = s[2][0], szy = s[2][1], szz = s[2][2];
  mat4 a = mat4(
    sxx + syy + szz, syz - szy, szx - sxz, sxy - syx,
    syz - szy, sxx - syy - szz, sxy + syx, szx + sxz,
    szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy,
    sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz);
  mat4 v = mat4(1.0);
  for (int sweep = 0; sweep < DDM_JACOBI_SWEEPS; sweep++) {
    ddmJacobi(a, v, 0, 1);
    ddmJacobi(a, v, 0, 2);
    ddmJacobi(a, v, 0, 3);
    ddmJacobi(a, v, 1, 2);
    ddmJacobi(a, v, 1, 3);
    ddmJacobi(a, v, 2, 3);
  }
  int best = 0;
  for (int i = 1; i < 4; i++) if (a[i][i] > a[best][best]) best = i;
  vec4 q = v[best];
  float len = length(q);
  q = len > 0.0 ? q / len : vec4(1.0, 0.0, 0.0, 0.0);
  float qw = q.x, qx = q.y, qy = q.z, qz = q.w;
  return mat3(
    1.0 - 2.0 * (qy * qy + qz * qz), 2.0 * (qx * qy + qw * qz), 2.0 * (qx * qz - qw * qy),
    2.0 * (qx * qy - qw * qz), 1.0 - 2.0 * (qx * qx + qz * qz), 2.0 * (qy * qz + qw * qx),
    2.0 * (qx * qz + qw * qy), 2.0 * (qy * qz - qw * qx), 1.0 - 2.0 * (qx * qx + qy * qy));
}

// The bind-space axis scale of a palette matrix [R·S | t]: its column lengths, z negated where it mirrors.
vec3 ddmScale(mat4 m) {
  vec3 s = vec3(length(m[0].xyz), length(m[1].xyz), length(m[2].xyz));
  return determinant(mat3(m)) < 0.0 ? vec3(s.xy, -s.z) : s;
}

void skinVertex(vec3 p, vec3 n, vec3 tv, out vec3 position, out vec3 normal, out vec3 tangent) {
  vec3 centre = vec3(ddmTexel(2).w, ddmTexel(5).w, ddmTexel(8).w);
  mat4 q = mat4(0.0);
  mat3 warm = mat3(0.0);
  vec3 scale = vec3(0.0);
  for (int s = 0; s < 8; s++) {
    vec4 t2 = ddmTexel(3 * s + 2);
    if (t2.y == 0.0) break;
    vec4 t0 = ddmTexel(3 * s);
    vec4 t1 = ddmTexel(3 * s + 1);
    mat4 m = ddmPalette(uint(t2.z + 0.5));
    vec3 bs = ddmScale(m);
    if (s == 0) warm = mat3(m) * mat3(bs.x, 0.0, 0.0, 0.0, bs.y, 0.0, 0.0, 0.0, bs.z);
    scale += t2.y * bs;
    m[3] = vec4((m * vec4(centre, 1.0)).xyz, 1.0);
    mat4 omega = mat4(
      t0.x, t0.y, t0.z, t0.w,
      t0.y, t1.x, t1.y, t1.z,
      t0.z, t1.y, t1.w, t2.x,
      t0.w, t1.z, t2.x, t2.y);
    q += m * omega;
  }
  float inv = q[3][3] != 0.0 ? 1.0 / q[3][3] : 0.0;
  q *= inv;
  scale *= inv;
  vec3 qt = q[3].xyz;
  vec3 pbar = vec3(q[0][3], q[1][3], q[2][3]);
  mat3 c = mat3(q) - outerProduct(qt, pbar);
  mat3 r = ddmPolar(mat3(c[0] * scale.x, c[1] * scale.y, c[2] * scale.z), warm);
  position = r * (scale * (p - centre - pbar)) + qt;
  vec3 nr = r * (n / scale);
  float nl = length(nr);
  normal = nl > 1e-20 ? nr / nl : vec3(0.0);
  vec3 tr = r * (scale * tv);
  float tl = length(tr);
  tangent = tl > 1e-20 ? tr / tl : vec3(0.0);
}
