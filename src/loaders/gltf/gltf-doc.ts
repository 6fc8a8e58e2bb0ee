/**
 * The glTF document as the Scene builders read it: nodes, meshes and primitives, skins, materials and their
 * textures, animations, each an object that links to the others and answers the glTF defaults for what the
 * file leaves out. Built by gltf-doc-read.ts from JSON that checkGltf has passed, so every reference here
 * resolves and every accessor's bytes are in range.
 *
 * Accessor data is read on first use (GltfAccessor.getArray): one typed array per accessor, a view over the
 * file's bytes where they are packed and aligned, a copy otherwise (interleaved, misaligned, sparse, decoded).
 * These arrays may alias the input file: callers copy before they change anything (gltf-accessor.ts does).
 */

export type ComponentArray = Float32Array | Uint32Array | Uint16Array | Uint8Array | Int16Array | Int8Array;

export class GltfAccessor {
  private array: ComponentArray | null | undefined;
  constructor(
    readonly index: number,
    /** Components per element (SCALAR 1 … MAT4 16). */
    private readonly components: number,
    private readonly normalized: boolean,
    private readonly read: () => ComponentArray | null,
    /** The structural check read every value from the file and found it finite (Layout.checked; never for Draco data). */
    readonly checkedFinite = false,
  ) {}

  /** count × components values of the accessor's component type (sparse applied, compression decoded). */
  getArray(): ComponentArray | null {
    if (this.array === undefined) this.array = this.read();
    return this.array;
  }

  /** Replaces the data (a Draco-decoded attribute). */
  setArray(array: ComponentArray): void {
    this.array = array;
  }

  getElementSize(): number {
    return this.components;
  }

  getNormalized(): boolean {
    return this.normalized;
  }
}

/** One image of the file (glTF `images[i]`): what the materials' textures show. */
export class GltfTexture {
  constructor(
    /** Index in `images`. */
    readonly index: number,
    private readonly name: string,
    private readonly mimeType: string,
    /** The image bytes when they are inside the file (buffer view or data: URI), else null. */
    private readonly image: Uint8Array | null,
  ) {}

  getName(): string {
    return this.name;
  }

  getMimeType(): string {
    return this.mimeType;
  }

  getImage(): Uint8Array | null {
    return this.image;
  }
}

/** KHR_texture_transform of a texture reference, as written (the glTF defaults where absent). */
export interface GltfTextureTransform {
  readonly offset: readonly number[];
  readonly rotation: number;
  readonly scale: readonly number[];
  /** The UV set it overrides the reference's texCoord with, or null. */
  readonly texCoord: number | null;
}

/** A material's reference to a texture (glTF textureInfo). */
export class GltfTextureInfo {
  constructor(
    readonly texture: GltfTexture | null,
    private readonly texCoord: number,
    private readonly transform: GltfTextureTransform | null,
  ) {}

  getTexCoord(): number {
    return this.texCoord;
  }

  getTransform(): GltfTextureTransform | null {
    return this.transform;
  }
}

/** The material fields the Scene reads, with glTF's defaults; values are as written (not range-checked). */
export interface GltfMaterialDef {
  readonly name: string;
  readonly baseColorFactor: readonly number[];
  readonly emissiveFactor: readonly number[];
  readonly emissiveStrength: number;
  readonly metallicFactor: number;
  readonly roughnessFactor: number;
  readonly alphaMode: string;
  readonly alphaCutoff: number;
  readonly doubleSided: boolean;
  readonly normalScale: number;
  readonly occlusionStrength: number;
  readonly baseColor: GltfTextureInfo | null;
  readonly metallicRoughness: GltfTextureInfo | null;
  readonly normal: GltfTextureInfo | null;
  readonly occlusion: GltfTextureInfo | null;
  readonly emissive: GltfTextureInfo | null;
  /** Extensions on the material that the file declares in extensionsUsed. */
  readonly extensions: readonly string[];
}

export class GltfMaterial {
  constructor(readonly def: GltfMaterialDef) {}

  getName(): string {
    return this.def.name;
  }
}

export class GltfTarget {
  constructor(private readonly attributes: ReadonlyMap<string, GltfAccessor>) {}

  getAttribute(semantic: string): GltfAccessor | null {
    return this.attributes.get(semantic) ?? null;
  }
}

export class GltfPrimitive {
  constructor(
    private readonly attributes: ReadonlyMap<string, GltfAccessor>,
    private readonly indices: GltfAccessor | null,
    private readonly mode: number,
    private readonly material: GltfMaterial | null,
    private readonly targets: readonly GltfTarget[],
  ) {}

  getAttribute(semantic: string): GltfAccessor | null {
    return this.attributes.get(semantic) ?? null;
  }

  getIndices(): GltfAccessor | null {
    return this.indices;
  }

  getMode(): number {
    return this.mode;
  }

  getMaterial(): GltfMaterial | null {
    return this.material;
  }

  listTargets(): readonly GltfTarget[] {
    return this.targets;
  }
}

export class GltfMesh {
  constructor(
    private readonly name: string,
    private readonly primitives: readonly GltfPrimitive[],
    private readonly weights: readonly number[],
    private readonly extras: unknown,
  ) {}

  getName(): string {
    return this.name;
  }

  listPrimitives(): readonly GltfPrimitive[] {
    return this.primitives;
  }

  getWeights(): readonly number[] {
    return this.weights;
  }

  getExtras(): unknown {
    return this.extras;
  }
}

export class GltfSkin {
  constructor(
    private readonly name: string,
    private readonly joints: readonly GltfNode[],
    private readonly inverseBindMatrices: GltfAccessor | null,
  ) {}

  getName(): string {
    return this.name;
  }

  listJoints(): readonly GltfNode[] {
    return this.joints;
  }

  getInverseBindMatrices(): GltfAccessor | null {
    return this.inverseBindMatrices;
  }
}

export class GltfNode {
  mesh: GltfMesh | null = null;
  skin: GltfSkin | null = null;
  parent: GltfNode | null = null;
  readonly children: GltfNode[] = [];
  constructor(
    /** Index in `nodes`. */
    readonly index: number,
    private readonly name: string,
    /** TRS as written, glTF's defaults where absent (a node with `matrix` keeps the defaults: the caller decomposes it). */
    private readonly translation: readonly number[],
    private readonly rotation: readonly number[],
    private readonly scale: readonly number[],
    private readonly weights: readonly number[],
  ) {}

  getName(): string {
    return this.name;
  }

  getMesh(): GltfMesh | null {
    return this.mesh;
  }

  getSkin(): GltfSkin | null {
    return this.skin;
  }

  getParentNode(): GltfNode | null {
    return this.parent;
  }

  listChildren(): readonly GltfNode[] {
    return this.children;
  }

  getTranslation(): readonly number[] {
    return this.translation;
  }

  getRotation(): readonly number[] {
    return this.rotation;
  }

  getScale(): readonly number[] {
    return this.scale;
  }

  getWeights(): readonly number[] {
    return this.weights;
  }
}

export class GltfSampler {
  constructor(
    private readonly input: GltfAccessor,
    private readonly output: GltfAccessor,
    private readonly interpolation: string,
  ) {}

  getInput(): GltfAccessor {
    return this.input;
  }

  getOutput(): GltfAccessor {
    return this.output;
  }

  getInterpolation(): string {
    return this.interpolation;
  }
}

export type GltfPath = 'translation' | 'rotation' | 'scale' | 'weights';

export class GltfChannel {
  constructor(
    private readonly node: GltfNode | null,
    private readonly path: GltfPath,
    private readonly sampler: GltfSampler,
  ) {}

  getTargetNode(): GltfNode | null {
    return this.node;
  }

  getTargetPath(): GltfPath {
    return this.path;
  }

  getSampler(): GltfSampler {
    return this.sampler;
  }
}

export class GltfAnimation {
  constructor(
    private readonly name: string,
    private readonly channels: readonly GltfChannel[],
    private readonly extras: unknown,
  ) {}

  getName(): string {
    return this.name;
  }

  listChannels(): readonly GltfChannel[] {
    return this.channels;
  }

  getExtras(): unknown {
    return this.extras;
  }
}

/** The whole document; lists are in file order. */
export interface GltfDoc {
  readonly nodes: readonly GltfNode[];
  /** The default scene's root nodes (`scene`, else scene 0), or null when the file has no scenes. */
  readonly sceneRoots: readonly GltfNode[] | null;
  readonly materials: readonly GltfMaterial[];
  readonly textures: readonly GltfTexture[];
  readonly animations: readonly GltfAnimation[];
  /** asset.copyright when it is a string, else undefined. */
  readonly copyright: string | undefined;
}
