import type { MorphDeltas, SkinnedMesh } from '../../model/types.ts';
import type { GltfNode, GltfPrimitive as Primitive, GltfSkin as Skin } from './gltf-doc.ts';
import type { MaterialSet } from './gltf-material.ts';
import { unweldFlat } from './gltf-flat.ts';
import { readGeometry, type PrimitiveGeometry } from './gltf-mesh.ts';
import { primitiveDeltas, type MorphTable } from './gltf-morph.ts';
import { UniqueNames } from './gltf-names.ts';
import type { GltfSkeleton } from './gltf-nodes.ts';
import { readInfluences, rigidInfluences, rigidPalette, skinPalette, type Influences, type Palette } from './gltf-skin.ts';

/**
 * The meshes placed by the skeleton's nodes → SkinnedMeshes, one per (node, triangle primitive), named after
 * the mesh (else the node), `_<k>` per primitive when there are several, made unique.
 *
 * - Skinned (the node has a skin and the primitive JOINTS_0/WEIGHTS_0): vertices as the file gives them (bind
 *   space); the palette is the skin's (shared by every mesh of that skin); the node's own transform is ignored,
 *   as glTF 2.0 §3.7.3 says.
 * - Rigid (no skin): one palette slot, the node, identity inverse bind, weight 1, `skinned: false`; vertices in
 *   the node's space, so the mesh follows the node and its animated ancestors.
 * - A mesh placed by several nodes gives one SkinnedMesh per node; they share the vertex arrays.
 * - A primitive without NORMAL is drawn flat, as glTF requires: unwelded, one face normal per triangle (gltf-flat.ts).
 * One warning each, with counts: point and line primitives skipped; vertices whose weights do not sum to 1
 * (rescaled) or are all 0; vertices with more than 4 influences (4 largest kept, renormalised).
 */

export interface MeshInputs {
  readonly fileName: string;
  readonly skeleton: GltfSkeleton;
  readonly materials: MaterialSet;
  readonly morph: MorphTable;
  readonly warnings: string[];
  /** validateScene's `checked`: arrays whose values the reader vouches for (gltf-mesh.ts, gltf-flat.ts, gltf-skin.ts). */
  readonly checked: Set<ArrayBufferView>;
}

export function buildMeshes({ fileName, skeleton, materials, morph, warnings, checked }: MeshInputs): SkinnedMesh[] {
  const geometry = new Map<Primitive, PrimitiveGeometry | null>();
  const influences = new Map<Primitive, Map<Skin, Influences | null>>();
  const palettes = new Map<Skin, Palette>();
  const meshes: SkinnedMesh[] = [];
  const usedNames = new UniqueNames();
  let skippedModes = 0;
  const colourNotes: string[] = [];
  let overflow = 0;
  let rescaled = 0;
  let empty = 0;
  const total = morph.names.length;
  const indexOf = (n: GltfNode): number => skeleton.indexOf.get(n)!;

  for (let nodeIndex = 0; nodeIndex < skeleton.nodes.length; nodeIndex++) {
    const node = skeleton.nodes[nodeIndex]!;
    const mesh = node.getMesh();
    if (!mesh) continue;
    const skin = node.getSkin();
    const prims = mesh.listPrimitives();
    const baseName = mesh.getName() || skeleton.names[nodeIndex]!;
    const targets = morph.base.get(nodeIndex);
    prims.forEach((prim, p) => {
      const where = `${fileName}: mesh "${baseName}" primitive ${p}`;
      const material = prim.getMaterial();
      let geo = geometry.get(prim);
      if (geo === undefined) {
        geo = readGeometry(prim, materials.uvSet(material), materials.uvTransform(material), where, checked);
        geometry.set(prim, geo);
        if (geo === null) skippedModes++;
        else if (geo.colourNote) colourNotes.push(geo.colourNote);
      }
      if (geo === null) return;
      let inf: Influences | null = null;
      let palette: Palette;
      if (skin && prim.getAttribute('JOINTS_0') && prim.getAttribute('WEIGHTS_0')) {
        let perSkin = influences.get(prim);
        if (!perSkin) influences.set(prim, (perSkin = new Map()));
        inf = perSkin.get(skin) ?? null;
        if (!perSkin.has(skin)) {
          inf = readInfluences(prim, geo.vertexCount, skin.listJoints().length, where);
          perSkin.set(skin, inf);
          if (inf) {
            overflow += inf.overflow;
            rescaled += inf.rescaled;
            empty += inf.empty;
          }
        }
        let pal = palettes.get(skin);
        if (!pal) palettes.set(skin, (pal = skinPalette(skin, indexOf, `${fileName}: skin "${skin.getName()}"`, checked)));
        palette = pal;
      }
      const skinned = inf !== null;
      if (!skinned) {
        inf = rigidInfluences(geo.vertexCount);
        palette = rigidPalette(nodeIndex);
      }
      const base = prims.length > 1 ? `${baseName}_${p}` : baseName;
      const name = usedNames.take(base);
      let morphs: MorphDeltas[] | null = null;
      if (targets) morphs = primitiveDeltas(prim, geo.vertexCount, targets.start, total, where);
      if (geo.computedNormals) ({ geometry: geo, influences: inf, morphs } = unweldFlat(geo, inf!, morphs, checked));
      if (inf!.tidy) {
        checked.add(inf!.joints);
        checked.add(inf!.weights);
      }
      meshes.push({
        name,
        vertexCount: geo.vertexCount,
        positions: geo.positions,
        normals: geo.normals,
        tangents: geo.tangents,
        uvs: geo.uvs,
        ...(geo.colors ? { colors: geo.colors } : {}),
        joints: inf!.joints,
        weights: inf!.weights,
        maxInfluences: inf!.maxInfluences,
        indices: geo.indices,
        subsets: [{ material: materials.indexOf(material), start: 0, count: geo.indices.length / 3 }],
        bones: palette!.bones,
        invBind: palette!.invBind,
        skinned,
        ...(morphs ? { morphs } : {}),
      });
    });
  }
  if (colourNotes.length > 0) {
    warnings.push(`${colourNotes[0]}: vertex colours ignored${colourNotes.length > 1 ? ` (and ${colourNotes.length - 1} more primitives)` : ''}`);
  }
  if (skippedModes > 0) warnings.push(`${skippedModes} point or line primitive${skippedModes === 1 ? '' : 's'} skipped (skinlab draws triangles)`);
  // The spec asks for weights that sum to 1; exporters often write them rounded (the validator's
  // ACCESSOR_WEIGHTS_NON_NORMALIZED), so the sum is fixed and said once.
  if (rescaled > 0) warnings.push(`${rescaled} vert${rescaled === 1 ? 'ex has' : 'ices have'} blend weights not summing to 1: rescaled`);
  if (empty > 0) warnings.push(`${empty} skinned vert${empty === 1 ? 'ex has' : 'ices have'} no weight: bound to the skin's first joint`);
  if (overflow > 0) {
    warnings.push(`${overflow} ${overflow === 1 ? 'vertex has' : 'vertices have'} more than 4 bone influences (JOINTS_1/WEIGHTS_1): the 4 largest kept, renormalised`);
  }
  return meshes;
}
