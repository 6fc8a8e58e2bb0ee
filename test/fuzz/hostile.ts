import { deflateSync } from 'fflate';
import { packMszip } from './mszip-pack.ts';

/**
 * Hand-built hostile inputs that random mutation of the corpus cannot reach: extreme depth, extreme
 * fan-out and counts that stay consistent with the data (so the readers accept them and the scene
 * builders must cope), decompression ratios at the format's limits. Each is a few MiB at most and must,
 * like any mutant, load or fail with a LoadError within the time limit (check.ts). Synthetic: no corpus
 * content, so they can be regenerated anywhere.
 */

export interface HostileInput {
  readonly name: string;
  /** The input; `scale` (default 1) multiplies the repeated part where the size is the point of the input. */
  readonly bytes: (scale?: number) => Uint8Array;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const times = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join('');

const X = 'xof 0303txt 0032\n';
/** The smallest useful mesh: one triangle. */
const TRIANGLE = '3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;;';

function binary(parts: (number[] | Uint8Array)[]): Uint8Array {
  const out: number[] = [...enc('xof 0303bin 0032')];
  for (const p of parts) for (const b of p) out.push(b);
  return new Uint8Array(out);
}
const u16 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff];
const u32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
const bname = (s: string): number[] => [...u16(1), ...u32(s.length), ...enc(s)];

function m3dHeader(clips: number, bones = 1): string {
  let s = `***m3d-File-Header***\n#Materials 0\n#Vertices 3\n#Triangles 1\n#Bones ${bones}\n#AnimationClips ${clips}\n***Materials***\n***SubsetTable***\n***Vertices***\n`;
  for (let i = 0; i < 3; i++) s += `Position: ${i & 1} ${i >> 1} 0\nNormal: 0 0 -1\nBlendWeights: 1 0 0 0\nBlendIndices: 0 0 0 0\n`;
  s += '***Triangles***\n0 1 2\n***BoneOffsets***\n';
  s += times(bones, (b) => `BoneOffset${b} 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1\n`);
  s += `***BoneHierarchy***\n${times(bones, (b) => `ParentIndexOfBone${b}: ${b - 1}\n`)}`;
  return s;
}

/** `clips` clips of one empty bone track, `targets` empty targets, and `tracksPerClip` tracks on each of the last `clipsWithTracks` clips. */
function m3dMorphs(clips: number, targets: number, clipsWithTracks: number, tracksPerClip: number): Uint8Array {
  const parts = [m3dHeader(clips), '***AnimationClips***\n', times(clips, (c) => `AnimationClip c${c} { Bone0 #Keyframes: 0 { } }\n`)];
  parts.push(`***MorphTargets***\n#MorphTargets ${targets}\n`, times(targets, (t) => `MorphTarget t${t} Kind: emotion #Vertices: 0 { }\n`));
  const tracks: string[] = [];
  for (let c = clips - clipsWithTracks; c < clips; c++) for (let t = 0; t < tracksPerClip; t++) tracks.push(`MorphTrack c${c} t${t} #Keyframes: 1 { Time: 0 Weight: 1 }\n`);
  parts.push(`***MorphTracks***\n#MorphTracks ${tracks.length}\n`, ...tracks);
  return enc(parts.join(''));
}

/** `meshes` one-triangle meshes (Meshes chunk) and `targets` targets each moving one vertex of a different mesh. */
function m3dMeshesTimesTargets(meshes: number, targets: number): Uint8Array {
  let s = `***m3d-File-Header***\n#Materials 0\n#Vertices ${meshes * 3}\n#Triangles ${meshes}\n#Bones 0\n#AnimationClips 0\n***Materials***\n***SubsetTable***\n***Vertices***\n`;
  s += times(meshes * 3, (v) => `Position: ${v & 1} ${(v >> 1) & 1} ${v}\nNormal: 0 0 -1\n`);
  s += `***Triangles***\n${times(meshes, (m) => `${3 * m} ${3 * m + 1} ${3 * m + 2}\n`)}`;
  s += `***Meshes***\n#Meshes ${meshes}\n${times(meshes, (m) => `Mesh m${m} VertexStart: ${3 * m} VertexCount: 3 FaceStart: ${m} FaceCount: 1\n`)}`;
  s += `***MorphTargets***\n#MorphTargets ${targets}\n`;
  s += times(targets, (t) => `MorphTarget t${t} Kind: modifier #Vertices: 1 { Vertex: ${3 * (t % meshes)} dPos: 0 0 1 dNrm: 0 0 0 }\n`);
  return enc(s);
}

/** MSZIP .x whose stream is `body` after a 'txt ' header, in blocks of `block` bytes. */
function tzip(body: Uint8Array, block: number): Uint8Array {
  const stream = new Uint8Array(16 + body.length);
  stream.set(enc('xof 0303tzip0032'));
  stream.set(body, 16);
  return packMszip(stream, block);
}

/**
 * MSZIP framing around ready-made blocks: `head` packed normally, then `count` copies of one block that
 * expands to `raw` bytes from `packed` (valid without a dictionary, so the copies may repeat).
 */
function tzipRepeat(head: Uint8Array, raw: number, packed: Uint8Array, count: number): Uint8Array {
  const first = tzip(head, 65000);
  const block = [...u16(raw), ...u16(packed.length + 2), 0x43, 0x4b, ...packed];
  const out = new Uint8Array(first.length + count * block.length);
  out.set(first);
  for (let i = 0; i < count; i++) out.set(block, first.length + i * block.length);
  new DataView(out.buffer).setUint32(16, 16 + head.length + count * raw, true);
  return out;
}

/** A stored (uncompressed) final deflate block holding one space. */
const STORED_SPACE = new Uint8Array([0x01, 0x01, 0x00, 0xfe, 0xff, 0x20]);
/** A fixed-Huffman deflate block of 65,000 spaces, the format's largest expansion per block. */
const DEFLATED_SPACES = deflateSync(new Uint8Array(65000).fill(0x20));

export const HOSTILE: readonly HostileInput[] = [
  { name: 'nested-frames.x', bytes: () => enc(X + 'Frame n{'.repeat(100000) + '}'.repeat(100000)) },
  { name: 'nested-references.x', bytes: () => enc(`${X}Frame a { ${'{ '.repeat(100000)}}`) },
  { name: 'nested-templates.x', bytes: () => enc(`${X + 'template T { '.repeat(100000) + '}'.repeat(100000)}\nMesh { ${TRIANGLE} }`) },
  { name: 'open-braces.x', bytes: () => enc(`${X}Frame a ${'{'.repeat(1000000)}`) },
  { name: 'unnamed-frames.x', bytes: () => enc(`${X}Frame { ${times(10000, () => 'Frame {}\n')} Mesh { ${TRIANGLE} } }`) },
  {
    name: 'mesh-morph-targets.x',
    bytes: (k = 1) => enc(`${X}Mesh m { ${TRIANGLE}\n${times(Math.round(30000 * k), (i) => `SkinlabMorphTarget { "t${i}"; 0; 1; 0; 0;0;1;; 0;0;0;; }\n`)} }`),
  },
  {
    name: 'meshes-times-morph-targets.x',
    bytes: () => enc(X + times(4000, (i) => `Mesh m${i} { ${TRIANGLE}\nSkinlabMorphTarget { "t${i}"; 0; 1; 0; 0;0;1;; 0;0;0;; } }\n`)),
  },
  {
    name: 'morph-tracks.x',
    bytes: () =>
      enc(`${X}Mesh m { ${TRIANGLE}\n${times(20000, (i) => `SkinlabMorphTarget { "t${i}"; 0; 1; 0; 0;0;1;; 0;0;0;; }\n`)} }\n` +
        `AnimationSet { ${times(20000, (i) => `SkinlabMorphTrack { "t${i}"; 1; 0;1;1;; }\n`)} }`),
  },
  { name: 'animation-sets.x', bytes: () => enc(`${X}Frame a { Mesh { ${TRIANGLE} } }\n${times(10000, (i) => `AnimationSet s${i} { Animation { { a } AnimationKey { 2; 1; 0;3;0,0,0;;; } } }\n`)}`) },
  { name: 'animations-one-frame.x', bytes: () => enc(`${X}Frame a { Mesh { ${TRIANGLE} } }\nAnimationSet { ${times(10000, () => 'Animation { { a } AnimationKey { 2; 1; 0;3;0,0,0;;; } }\n')} }`) },
  {
    name: 'skin-bones.x',
    bytes: () => enc(`${X}Mesh { ${TRIANGLE}\n${times(33000, (i) => `SkinWeights { "b${i}"; 1; 0; 1.0; 1;0;0;0;0;1;0;0;0;0;1;0;0;0;0;1;; }\n`)} }`),
  },
  { name: 'materials.x', bytes: () => enc(`${X}Mesh { ${TRIANGLE}\nMeshMaterialList { 1000000000; 1; 0;; ${times(20000, () => 'Material { 1;1;1;1;; 1; 0;0;0;; 0;0;0;; }\n')} } }`) },
  { name: 'long-name.x', bytes: () => enc(`${X}Frame ${'n'.repeat(1 << 20)} { Mesh { ${TRIANGLE} } } Frame ${'m'.repeat(1 << 20)} ;`) },
  { name: 'many-top-level-templates.x', bytes: () => enc(X + times(50000, (i) => `T${i} {}\n`)) },
  { name: 'huge-face.x', bytes: () => enc(`${X}Mesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 300000;${times(300000, (i) => `${i % 3},`)}; }`) },
  { name: 'many-meshes.x', bytes: () => enc(`${X}Frame a { ${times(10000, () => `Mesh { ${TRIANGLE} }\n`)} }`) },
  { name: 'nested-frames.bin.x', bytes: () => binary([...Array.from({ length: 100000 }, () => [...bname('Frame'), ...bname('n'), ...u16(10)]), ...Array.from({ length: 100000 }, () => u16(11))]) },
  { name: 'name-length-max.bin.x', bytes: () => binary([[...u16(1), ...u32(0xffffffff)], enc('Frame')]) },
  { name: 'float-list-count-max.bin.x', bytes: () => binary([bname('Mesh'), u16(10), [...u16(7), ...u32(0x3fffffff)], new Uint8Array(64)]) },
  { name: 'clips-times-tracks.m3d', bytes: (k = 1) => m3dMorphs(Math.round(20000 * k), Math.round(2000 * k), 10, Math.round(2000 * k)) },
  { name: 'tracks-one-clip.m3d', bytes: (k = 1) => m3dMorphs(1, Math.round(60000 * k), 1, Math.round(60000 * k)) },
  { name: 'meshes-times-targets.m3d', bytes: () => m3dMeshesTimesTargets(5000, 5000) },
  { name: 'bones-and-clips.m3d', bytes: () => enc(`${m3dHeader(20, 5000)}***AnimationClips***\n${times(20, (c) => `AnimationClip c${c} { ${times(5000, (b) => `Bone${b} #Keyframes: 0 { } `)}}\n`)}`) },
  { name: 'tiny-blocks.tzip.x', bytes: (k = 1) => tzipRepeat(enc(`Frame a { Mesh { ${TRIANGLE} } }`), 1, STORED_SPACE, Math.round(100000 * k)) },
  { name: 'inflate-ratio.tzip.x', bytes: () => tzipRepeat(enc(`Mesh { ${TRIANGLE} }`), 65000, DEFLATED_SPACES, 500) },
];
