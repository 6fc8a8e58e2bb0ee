import { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { ATTRIB } from '../gpu/programs.ts';
import { distinctTextures, prepareMaterialTextures, uploadMaterialSet, type CompanionSource, type MaterialMaps, type PreparedTextures } from '../gpu/textures.ts';
import { contextUsable } from '../gpu/context-loss.ts';
import type { Scene } from '../model/types.ts';
import type { DeviceCaps, Technique, TechniqueMesh, TechniqueOptions } from '../techniques/technique.ts';
import { BindPose } from './bind-pose.ts';
import { ViewData } from './view-data.ts';
import { VertexColours } from './vertex-colours.ts';
import { MorphRuntime } from './morph-runtime.ts';
import { TangentLines } from './tangent-lines.ts';

/**
 * Every GPU resource of one loaded model: mesh buffers, material textures, the per-technique mesh
 * state (built the first time a technique is used, kept so switching back is instant), the skeleton
 * overlay's line buffer, the floor grid, contact shadow and shadow-receiving quad sized to the model, the weights/influences views'
 * vertex attributes, the morph runtime and the bind pose. dispose() releases all of it.
 *
 * Context loss: everything here is derived from the scene (CPU data the app keeps), the framing and the
 * companion files. After a loss the owner disposes this (a no-op on a lost context, it only forgets the
 * handles) and calls rebuild() once the context is back: a new ModelGpu from the same inputs (textures
 * fetched and decoded again, technique state rebuilt on first use).
 */
export class ModelGpu {
  readonly meshes: MeshBuffers[];
  /** Per material; null means "use the white texture". Materials naming one file share its texture. */
  readonly textures: (WebGLTexture | null)[];
  /** Per material: its metallic-roughness, normal, occlusion and emissive maps (null: none; SceneUniforms uses a neutral default). */
  readonly maps: MaterialMaps[];
  /** Keyed by Technique.meshKey(options): a partitioned technique keeps one state per influence count / palette. */
  private readonly techniqueMeshes = new Map<string, TechniqueMesh[]>();

  /** Skeleton overlay: 2 vertices per node (node, parent), 7 floats each (xyz rgba); rewritten per frame. */
  readonly boneLines: Float32Array;
  /**
   * 1 for the nodes the overlay draws: those a mesh binds to (bones, rigid meshes' frames) and the frames
   * between two of them. Helper frames above the skeleton or hanging off it (3ds Max's scene boxes,
   * footsteps and nubs) are left out. All 1 for a scene whose meshes bind no node.
   */
  readonly boneShown: Uint8Array;
  readonly boneVao: WebGLVertexArrayObject;
  private readonly boneBuffer: WebGLBuffer;
  readonly gridVao: WebGLVertexArrayObject;
  readonly gridVertexCount: number;
  private readonly gridBuffer: WebGLBuffer;
  /** Soft contact shadow: a triangle fan on the floor, dark at the centre, clear at the rim. */
  readonly shadowVao: WebGLVertexArrayObject;
  readonly shadowVertexCount: number;
  private readonly shadowBuffer: WebGLBuffer;
  /** The floor that receives the key light's shadow map: a quad under the grid, 4 vertices (TRIANGLE_FAN). */
  readonly floorVao: WebGLVertexArrayObject;
  private readonly floorBuffer: WebGLBuffer;
  /** Identity palette and bind-pose node matrices (the bind pose toggle). */
  readonly bindPose: BindPose;
  /** Per technique vertex array: the weights and influences views' data texture (render/view-data.ts). */
  readonly viewData: ViewData;
  /** The meshes' vertex colours, per vertex order (render/vertex-colours.ts); bound before every mesh draw. */
  readonly vertexColours: VertexColours;
  /** Morph targets' runtime and GPU storage (render/morph-runtime.ts); null for a model without targets. */
  readonly morph: MorphRuntime | null;
  private disposed = false;
  private tangentLinesState: TangentLines | null = null;

  private constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly scene: Scene,
    textures: (WebGLTexture | null)[],
    maps: MaterialMaps[],
    /** What create() was given, kept for rebuild(). */
    private readonly companions: CompanionSource,
    /** The model's framing box (every clip's posed bounds) and floor: what the shadow map's frustum is fitted to. */
    readonly framing: ModelFraming,
  ) {
    const floorY = framing.floorY;
    const radius = framing.radius;
    const centre = framing.centre;
    const footprint = Math.max(framing.max[0]! - framing.min[0]!, framing.max[2]! - framing.min[2]!) / 2;
    const shadowRadius = footprint * 0.9;
    this.meshes = scene.meshes.map((m) => new MeshBuffers(gl, m));
    this.textures = textures;
    this.maps = maps;
    this.bindPose = new BindPose(scene);
    this.viewData = new ViewData(gl, gl.getParameter(gl.MAX_TEXTURE_SIZE) as number);
    this.vertexColours = new VertexColours(gl, gl.getParameter(gl.MAX_TEXTURE_SIZE) as number);
    this.morph = scene.morphTargets.length > 0 ? new MorphRuntime(gl, scene, gl.getParameter(gl.MAX_TEXTURE_SIZE) as number) : null;
    const nodes = scene.skeleton.parents.length;
    this.boneLines = new Float32Array(nodes * 2 * 7);
    this.boneShown = shownNodes(scene);
    [this.boneVao, this.boneBuffer] = lineVao(gl, this.boneLines, gl.DYNAMIC_DRAW);
    const grid = gridLines(floorY, radius, centre);
    this.gridVertexCount = grid.length / 7;
    [this.gridVao, this.gridBuffer] = lineVao(gl, grid, gl.STATIC_DRAW);
    const shadow = shadowFan(floorY, shadowRadius, centre);
    this.shadowVertexCount = shadow.length / 7;
    [this.shadowVao, this.shadowBuffer] = lineVao(gl, shadow, gl.STATIC_DRAW);
    [this.floorVao, this.floorBuffer] = lineVao(gl, floorQuad(grid), gl.STATIC_DRAW);
  }

  /**
   * Decodes the scene's textures (async), then creates every GL object. Texture problems become warnings;
   * they never fail the load. A context lost meanwhile is waited out (gpu/context-loss.ts contextUsable):
   * the objects are created on the restored context, never on a lost one. `decoding`: the same textures'
   * decode started earlier by the caller (prepareMaterialTextures of these materials and companions), so it
   * runs while the caller does other work; create then owns what it resolves to.
   */
  static async create(
    gl: WebGL2RenderingContext,
    scene: Scene,
    companions: CompanionSource,
    framing: ModelFraming,
    warnings: string[],
    decoding?: Promise<PreparedTextures>,
  ): Promise<ModelGpu> {
    const prepared = await (decoding ?? prepareMaterialTextures(gl, scene.materials, companions));
    await contextUsable(gl);
    // Synchronous from here: a loss can only come at a later task.
    const { diffuse, maps } = uploadMaterialSet(gl, scene.materials, prepared, warnings);
    return new ModelGpu(gl, scene, diffuse, maps, companions, framing);
  }

  /** A new ModelGpu of the same scene on the (restored) context: after a context loss. Texture warnings were reported at load and are not repeated. */
  rebuild(): Promise<ModelGpu> {
    return ModelGpu.create(this.gl, this.scene, this.companions, this.framing, []);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The technique's per-mesh state for these options, built on first use and kept (switching back is instant). */
  /** Technique mesh states built so far (one per technique and options first drawn): one-time work. */
  techniqueBuilds = 0;

  techniqueMeshesFor(technique: Technique, caps: DeviceCaps, options: TechniqueOptions): TechniqueMesh[] {
    const key = technique.meshKey(options);
    let list = this.techniqueMeshes.get(key);
    if (!list) {
      list = this.meshes.map((b) => technique.createMesh(this.gl, b, this.scene, caps, options));
      this.techniqueMeshes.set(key, list);
      this.techniqueBuilds++;
    }
    return list;
  }

  /** The tangents view's T/B/N overlay (render/tangent-lines.ts), made on first use: segments 3.5 % of the model's radius. */
  tangentLines(): TangentLines {
    return (this.tangentLinesState ??= new TangentLines(this.gl, this.scene, this.framing.radius * 0.035));
  }

  uploadBoneLines(): void {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.boneBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.boneLines);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const gl = this.gl;
    for (const m of this.meshes) m.dispose();
    for (const list of this.techniqueMeshes.values()) for (const t of list) t.dispose();
    this.techniqueMeshes.clear();
    this.viewData.dispose();
    this.vertexColours.dispose();
    this.morph?.dispose();
    this.tangentLinesState?.dispose();
    this.tangentLinesState = null;
    // Materials naming one file share its texture: each is deleted once.
    for (const t of distinctTextures(this.textures, this.maps)) gl.deleteTexture(t);
    gl.deleteVertexArray(this.boneVao);
    gl.deleteBuffer(this.boneBuffer);
    gl.deleteVertexArray(this.gridVao);
    gl.deleteBuffer(this.gridBuffer);
    gl.deleteVertexArray(this.shadowVao);
    gl.deleteBuffer(this.shadowBuffer);
    gl.deleteVertexArray(this.floorVao);
    gl.deleteBuffer(this.floorBuffer);
  }
}

/** What ModelGpu sizes the floor and shadow from (app/framing.ts Framing satisfies it). */
export interface ModelFraming {
  readonly floorY: number;
  readonly radius: number;
  readonly centre: ArrayLike<number>;
  readonly min: ArrayLike<number>;
  readonly max: ArrayLike<number>;
}

/** A VAO over interleaved xyz + rgba floats at ATTRIB.a_position / ATTRIB.a_colour. */
function lineVao(gl: WebGL2RenderingContext, data: Float32Array, usage: number): [WebGLVertexArrayObject, WebGLBuffer] {
  const vao = gl.createVertexArray();
  const buffer = gl.createBuffer();
  if (!vao || !buffer) throw new Error('could not create line buffers');
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, data, usage);
  gl.enableVertexAttribArray(ATTRIB.a_position);
  gl.vertexAttribPointer(ATTRIB.a_position, 3, gl.FLOAT, false, 28, 0);
  gl.enableVertexAttribArray(ATTRIB.a_colour);
  gl.vertexAttribPointer(ATTRIB.a_colour, 4, gl.FLOAT, false, 28, 12);
  gl.bindVertexArray(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  return [vao, buffer];
}

/** Floor grid on y = floorY around the model: a round spacing near radius/4, fading towards the edge. */
function gridLines(floorY: number, radius: number, centre: ArrayLike<number>): Float32Array {
  const r = Math.max(radius, 1e-3);
  const step = 10 ** Math.floor(Math.log10(r / 2));
  const half = Math.ceil((r * 2.5) / step);
  const cx = Math.round(centre[0]! / step) * step;
  const cz = Math.round(centre[2]! / step) * step;
  const out: number[] = [];
  const extent = half * step;
  for (let i = -half; i <= half; i++) {
    const major = i % 5 === 0;
    const a = major ? 0.34 : 0.16;
    const c = i === 0 ? 0.42 : 0.5;
    out.push(cx + i * step, floorY, cz - extent, c, c, c + 0.04, a, cx + i * step, floorY, cz + extent, c, c, c + 0.04, a);
    out.push(cx - extent, floorY, cz + i * step, c, c, c + 0.04, a, cx + extent, floorY, cz + i * step, c, c, c + 0.04, a);
  }
  return new Float32Array(out);
}

/**
 * The grid's square (its lines' extent, a hair above them like the contact shadow) as a 4-vertex fan, in the
 * colour and strength of the key light's shadow on the floor (lines.frag scales the alpha by the shadow).
 */
function floorQuad(grid: Float32Array): Float32Array {
  let x0 = Infinity;
  let x1 = -Infinity;
  let z0 = Infinity;
  let z1 = -Infinity;
  for (let i = 0; i < grid.length; i += 7) {
    x0 = Math.min(x0, grid[i]!);
    x1 = Math.max(x1, grid[i]!);
    z0 = Math.min(z0, grid[i + 2]!);
    z1 = Math.max(z1, grid[i + 2]!);
  }
  const y = (grid[1] ?? 0) + (x1 - x0) * 0.0002;
  const c = [0.01, 0.012, 0.02, 0.62];
  return new Float32Array([x0, y, z0, ...c, x1, y, z0, ...c, x1, y, z1, ...c, x0, y, z1, ...c]);
}

/** A 48-segment fan of radius r on y = floorY (a hair above, against z-fighting with the grid). */
function shadowFan(floorY: number, r: number, centre: ArrayLike<number>): Float32Array {
  const n = 48;
  const y = floorY + r * 0.002;
  const out: number[] = [centre[0]!, y, centre[2]!, 0.02, 0.02, 0.03, 0.75];
  for (let i = 0; i <= n; i++) {
    const a = (i / n) * Math.PI * 2;
    out.push(centre[0]! + Math.cos(a) * r, y, centre[2]! + Math.sin(a) * r, 0, 0, 0, 0);
  }
  return new Float32Array(out);
}

/** ModelGpu.boneShown for `scene` (exported for tests). */
export function shownNodes(scene: Scene): Uint8Array {
  const parents = scene.skeleton.parents;
  const n = parents.length;
  const bound = new Uint8Array(n);
  let any = false;
  for (const m of scene.meshes) {
    for (const b of m.bones) {
      bound[b] = 1;
      any = true;
    }
  }
  const shown = new Uint8Array(n);
  if (!any) return shown.fill(1);
  // Parents come before children: a backward pass finds bound descendants, a forward pass bound ancestors.
  const below = bound.slice();
  for (let i = n - 1; i >= 0; i--) if (below[i] && parents[i]! >= 0) below[parents[i]!] = 1;
  const above = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    if (p >= 0 && (bound[p] || above[p])) above[i] = 1;
  }
  for (let i = 0; i < n; i++) shown[i] = bound[i] || (below[i] && above[i]) ? 1 : 0;
  return shown;
}
