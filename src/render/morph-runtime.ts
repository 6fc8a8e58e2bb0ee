import { applyMorphs, effectiveWeightsInto, MORPH_SLOTS, type MorphPath } from '../anim/morph.ts';
import { MorphSlotBuffer, MorphTexture, MORPH_SLOT_STRIDE_BYTES, morphRegions } from '../gpu/morph-buffers.ts';
import { ATTRIB, MORPH_SLOT_LOCATION, MORPH_TEXTURE_UNIT, type Defines } from '../gpu/programs.ts';
import type { Scene, SkinnedMesh } from '../model/types.ts';
import type { PassMorph, TechniqueMesh } from '../techniques/technique.ts';

/**
 * The morph-target runtime of one model: applies the player's morph weights before skinning, in bind space,
 * by one of three paths (AppState `morphs`), whatever the skinning technique:
 * - 'slots' (Dawn §4.3.2): the 5 targets with the largest |weight| (anim/morph.ts chooseSlots) are bound to
 *   attribute pairs 6..15 by re-pointing them into the mesh's dense delta buffer (gpu/morph-buffers.ts,
 *   one per technique vertex order); weights in a uniform. More than 5 active: the rest are dropped
 *   (`dropped` is their Σ|w|).
 * - 'texture': every non-zero target (up to MORPH_MAX per mesh, in target order) from an RGBA32F delta texture.
 * - 'cpu': the reference: applyMorphs on the CPU into the technique's neutral position/normal buffers (the
 *   shader re-orthonormalises the neutral tangent against the normal it reads, so tangents need no upload).
 * The software technique skins on the CPU, so it always gets the CPU-morphed mesh, with the path's weights
 * (for 'slots' only the 5 bound ones: the same image as the GPU techniques).
 * A technique that skins in a pass of its own (stream-out: TechniqueMesh.passVao / setPassMorph) gets the GPU
 * path's inputs bound on its pass vertex array and a PassMorph (the define set and a uniform loader for the
 * pass program) whatever the draw programs' defines; on the cpu path its bind inputs are written as usual.
 *
 * Frame contract: prepare() once per frame (and before a readback) with the technique meshes about to be
 * drawn, then bindMesh() for each mesh with the program's MorphLocations before its draws. GPU storage is
 * built on first use of a path (load-time cost, then kept); a steady frame allocates nothing.
 * Owned by ModelGpu; dispose() deletes every handle.
 */

export { MORPH_PATHS, type MorphPath } from '../anim/morph.ts';
/** Active targets per mesh the texture path applies (uniform arrays of MORPH_MAX / 4 vec4). */
export const MORPH_MAX = 64;

/** The define sets the GPU paths add (one object each: a pass keys its programs by them). */
const SLOTS_DEFINES: Defines = { MORPH_SLOTS: true };
const TEXTURE_DEFINES: Defines = { MORPH_TEXTURE: true, MORPH_MAX };

/** The define set the morph path adds to skinned.vert (none for a model without targets, the cpu path, or CPU skinning). */
export function morphDefines(scene: Scene, path: MorphPath, cpuSkinned: boolean): Defines | null {
  if (scene.morphTargets.length === 0 || cpuSkinned || path === 'cpu') return null;
  return path === 'slots' ? SLOTS_DEFINES : TEXTURE_DEFINES;
}

/** A program's morph uniforms (null where the program has none). */
export interface MorphLocations {
  readonly slotWeights: WebGLUniformLocation | null;
  readonly slotWeight4: WebGLUniformLocation | null;
  readonly count: WebGLUniformLocation | null;
  readonly base: WebGLUniformLocation | null;
  readonly weight: WebGLUniformLocation | null;
}

export function morphLocations(gl: WebGL2RenderingContext, program: WebGLProgram): MorphLocations {
  return {
    slotWeights: gl.getUniformLocation(program, 'u_morphSlotWeights'),
    slotWeight4: gl.getUniformLocation(program, 'u_morphSlotWeight4'),
    count: gl.getUniformLocation(program, 'u_morphCount'),
    base: gl.getUniformLocation(program, 'u_morphBase'),
    weight: gl.getUniformLocation(program, 'u_morphWeight'),
  };
}

const NEUTRAL = -1;
const MODE_NONE = 0;
const MODE_SLOTS = 1;
const MODE_TEXTURE = 2;

interface MeshState {
  readonly mesh: SkinnedMesh;
  readonly regionOf: Int32Array;
  readonly regions: number;
  /** CPU-morphed bind-space mesh (3 floats per vertex; tangents 4, null without mesh tangents), version `version`, from weights `lastWeights`. */
  positions: Float32Array | null;
  normals: Float32Array | null;
  tangents: Float32Array | null;
  version: number;
  readonly lastWeights: Float32Array;
  texture: MorphTexture | null;
  /** Texture path, this frame: active targets, their first texels and weights. */
  count: number;
  readonly base: Int32Array;
  readonly weight: Float32Array;
}

interface VaoState {
  readonly tm: TechniqueMesh;
  readonly mesh: MeshState;
  /** The vertex arrays the GPU paths' inputs are bound on: the technique's pass array, or its triangle and edge arrays. */
  readonly vaos: readonly WebGLVertexArrayObject[];
  /** A pass technique's PassMorph per GPU path (null for the others). */
  readonly passSlots: PassMorph | null;
  readonly passTexture: PassMorph | null;
  slotBuffer: MorphSlotBuffer | null;
  /** Texture path: the mesh vertex each technique vertex copies (uint per vertex). */
  sourceBuffer: WebGLBuffer | null;
  mode: number;
  /** Slots path: the target bound to each slot in the vertex arrays (-1 none). */
  readonly boundSlots: Int32Array;
  /** MeshState.version written into tm.bindInputs, or NEUTRAL. */
  written: number;
  gatherPositions: Float32Array | null;
  gatherNormals: Float32Array | null;
}

export class MorphRuntime {
  /** The weights the current path applies this frame (the player's, less what the slots path drops). */
  readonly applied: Float32Array;
  /** Targets bound to the 5 slots this frame (ascending target index, -1 unused); filled on every path. */
  readonly slots = new Int32Array(MORPH_SLOTS);
  /** Σ|w| of the non-zero targets beyond the 5 slots (what the slots path drops). */
  dropped = 0;
  /** effectiveWeightsInto's out slot (no boxed double per frame). */
  private readonly droppedSlot = new Float64Array(1);
  path: MorphPath = 'slots';
  /** Bytes of GPU storage built so far for the morph paths. */
  storageBytes = 0;
  private readonly meshes: MeshState[];
  private readonly vaos = new Map<WebGLVertexArrayObject, VaoState>();
  /** Morph uniform locations of the pass programs seen (a few: one per path and influence count). */
  private readonly passLocations = new Map<WebGLProgram, MorphLocations>();
  private version = 0;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly scene: Scene,
    private readonly maxTextureSize: number,
  ) {
    const targets = scene.morphTargets.length;
    this.applied = new Float32Array(targets);
    this.meshes = scene.meshes.map((mesh) => {
      const { regionOf, regions } = morphRegions(mesh, targets);
      return {
        mesh,
        regionOf,
        regions,
        positions: null,
        normals: null,
        tangents: null,
        version: NEUTRAL,
        lastWeights: new Float32Array(targets).fill(NaN),
        texture: null,
        count: 0,
        base: new Int32Array(MORPH_MAX),
        weight: new Float32Array(MORPH_MAX),
      };
    });
    // Disabled slot arrays read this constant (context state): a zero difference.
    for (let l = MORPH_SLOT_LOCATION; l < MORPH_SLOT_LOCATION + 2 * MORPH_SLOTS; l++) gl.vertexAttrib4f(l, 0, 0, 0, 0);
  }

  get targetCount(): number {
    return this.applied.length;
  }

  /**
   * Per frame, before drawing `tmeshes` (one per scene mesh, in order) with `weights` (one per target).
   * `gpuMorph`: the programs carry this path's define (morphDefines non-null).
   */
  prepare(path: MorphPath, weights: Float32Array, tmeshes: readonly TechniqueMesh[], gpuMorph: boolean): void {
    this.path = path;
    if (this.applied.length === 0) return;
    effectiveWeightsInto(path, weights, this.applied, this.slots, this.droppedSlot);
    this.dropped = this.droppedSlot[0]!;
    if (path !== 'cpu') {
      // Location 6 of a mesh no target moves stays disabled and reads the generic value, whose type must match
      // the input of the programs carrying this path's define (draws, or a technique's own pass): uint
      // a_morphVertex (texture) or vec3 a_morphPosition0 (slots). Programs without the define do not read it.
      if (path === 'texture') this.gl.vertexAttribI4ui(MORPH_SLOT_LOCATION, 0, 0, 0, 0);
      else this.gl.vertexAttrib4f(MORPH_SLOT_LOCATION, 0, 0, 0, 0);
    }
    for (let i = 0; i < tmeshes.length; i++) {
      const ms = this.meshes[i];
      const tm = tmeshes[i]!;
      if (!ms || ms.regions === 0) {
        tm.setPassMorph?.(null);
        continue;
      }
      const vs = this.vaoState(tm, ms, i);
      if (path === 'cpu' || tm.bindInputs.kind === 'arrays') {
        this.morphOnCpu(ms);
        if (vs.written !== ms.version) this.writeBindInputs(vs, ms.positions!, ms.normals!, ms.tangents, ms.version);
      } else if (vs.written !== NEUTRAL) this.writeBindInputs(vs, ms.mesh.positions, ms.mesh.normals, ms.mesh.tangents, NEUTRAL);
      if (tm.setPassMorph) {
        // The technique's own pass morphs on the GPU paths, whatever its draw programs carry.
        if (path === 'slots') this.bindSlots(vs);
        else if (path === 'texture') this.prepareTexture(vs);
        tm.setPassMorph(path === 'slots' ? vs.passSlots : path === 'texture' ? vs.passTexture : null);
        continue;
      }
      if (!gpuMorph) continue;
      if (path === 'slots') this.bindSlots(vs);
      else if (path === 'texture') this.prepareTexture(vs);
    }
  }

  /** Loads mesh `index`'s morph uniforms (and texture) for the program in use; before the mesh's draws. */
  bindMesh(index: number, locs: MorphLocations | null): void {
    if (!locs) return;
    const gl = this.gl;
    const ms = this.meshes[index];
    const live = ms !== undefined && ms.regions > 0;
    if (locs.slotWeights) {
      const a = this.applied;
      const s = this.slots;
      gl.uniform4f(
        locs.slotWeights,
        live && s[0]! >= 0 ? a[s[0]!]! : 0,
        live && s[1]! >= 0 ? a[s[1]!]! : 0,
        live && s[2]! >= 0 ? a[s[2]!]! : 0,
        live && s[3]! >= 0 ? a[s[3]!]! : 0,
      );
      gl.uniform1f(locs.slotWeight4, live && s[4]! >= 0 ? a[s[4]!]! : 0);
    }
    if (locs.count) {
      gl.uniform1i(locs.count, live ? ms.count : 0);
      if (live && ms.count > 0 && ms.texture) {
        gl.uniform4iv(locs.base, ms.base);
        gl.uniform4fv(locs.weight, ms.weight);
        gl.activeTexture(gl.TEXTURE0 + MORPH_TEXTURE_UNIT);
        gl.bindTexture(gl.TEXTURE_2D, ms.texture.texture);
        gl.activeTexture(gl.TEXTURE0);
      }
    }
  }

  private vaoState(tm: TechniqueMesh, ms: MeshState, index: number): VaoState {
    let vs = this.vaos.get(tm.vao);
    if (!vs) {
      const pass = tm.passVao !== undefined && tm.setPassMorph !== undefined;
      const bind = (program: WebGLProgram): void => this.bindMesh(index, this.passLocationsOf(program));
      vs = {
        tm,
        mesh: ms,
        vaos: pass ? [tm.passVao!] : [tm.vao, tm.wireVao],
        passSlots: pass ? { defines: SLOTS_DEFINES, bind } : null,
        passTexture: pass ? { defines: TEXTURE_DEFINES, bind } : null,
        slotBuffer: null,
        sourceBuffer: null,
        mode: MODE_NONE,
        boundSlots: new Int32Array(MORPH_SLOTS).fill(-2),
        written: NEUTRAL,
        gatherPositions: null,
        gatherNormals: null,
      };
      this.vaos.set(tm.vao, vs);
    }
    return vs;
  }

  /** A pass program's morph uniform locations (looked up once per program). */
  private passLocationsOf(program: WebGLProgram): MorphLocations {
    let locs = this.passLocations.get(program);
    if (!locs) {
      locs = morphLocations(this.gl, program);
      this.passLocations.set(program, locs);
    }
    return locs;
  }

  /** ms.positions/normals = the mesh morphed by `applied`; recomputed only when the weights changed. */
  private morphOnCpu(ms: MeshState): void {
    const a = this.applied;
    let same = ms.positions !== null;
    for (let t = 0; same && t < a.length; t++) if (a[t] !== ms.lastWeights[t]) same = false;
    if (same) return;
    ms.positions ??= new Float32Array(ms.mesh.vertexCount * 3);
    ms.normals ??= new Float32Array(ms.mesh.vertexCount * 3);
    if (ms.mesh.tangents) ms.tangents ??= new Float32Array(ms.mesh.vertexCount * 4);
    applyMorphs(ms.mesh, a, ms.positions, ms.normals, ms.tangents);
    ms.lastWeights.set(a);
    ms.version = this.version++;
  }

  /**
   * Writes mesh-order positions/normals into tm's bind-space inputs (gathered through sourceVertex for buffers),
   * and the tangents into 'arrays' inputs (buffers keep the neutral tangents: the shader re-orthonormalises them).
   */
  private writeBindInputs(vs: VaoState, positions: Float32Array, normals: Float32Array, tangents: Float32Array | null, version: number): void {
    const inputs = vs.tm.bindInputs;
    vs.written = version;
    if (inputs.kind === 'arrays') {
      inputs.positions.set(positions);
      inputs.normals.set(normals);
      if (inputs.tangents && tangents) inputs.tangents.set(tangents);
      return;
    }
    const gl = this.gl;
    const src = vs.tm.sourceVertex;
    const n = src.length;
    vs.gatherPositions ??= new Float32Array(n * 3);
    vs.gatherNormals ??= new Float32Array(n * 3);
    const gp = vs.gatherPositions;
    const gn = vs.gatherNormals;
    for (let v = 0; v < n; v++) {
      const s = src[v]! * 3;
      const o = v * 3;
      gp[o] = positions[s]!;
      gp[o + 1] = positions[s + 1]!;
      gp[o + 2] = positions[s + 2]!;
      gn[o] = normals[s]!;
      gn[o + 1] = normals[s + 1]!;
      gn[o + 2] = normals[s + 2]!;
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, inputs.positions);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, gp);
    gl.bindBuffer(gl.ARRAY_BUFFER, inputs.normals);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, gn);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  /** Dawn: re-points the 5 attribute pairs of tm's vertex arrays at the chosen targets' regions (when the choice changed). */
  private bindSlots(vs: VaoState): void {
    const gl = this.gl;
    if (!vs.slotBuffer) {
      vs.slotBuffer = new MorphSlotBuffer(gl, vs.mesh.mesh, vs.tm.sourceVertex, vs.mesh.regionOf, vs.mesh.regions);
      this.storageBytes += vs.slotBuffer.bytes;
    }
    let same = vs.mode === MODE_SLOTS;
    for (let s = 0; same && s < MORPH_SLOTS; s++) if (vs.boundSlots[s] !== this.slots[s]) same = false;
    if (same) return;
    const sb = vs.slotBuffer;
    sb.fillSlots(this.slots);
    for (let k = 0; k < vs.vaos.length; k++) {
      gl.bindVertexArray(vs.vaos[k]!);
      gl.bindBuffer(gl.ARRAY_BUFFER, sb.buffer);
      for (let s = 0; s < MORPH_SLOTS; s++) {
        const t = this.slots[s]!;
        const offset = t >= 0 ? sb.offsetOf(t) : -1;
        const lp = MORPH_SLOT_LOCATION + 2 * s;
        if (offset < 0) {
          gl.disableVertexAttribArray(lp);
          gl.disableVertexAttribArray(lp + 1);
          continue;
        }
        gl.enableVertexAttribArray(lp);
        gl.vertexAttribPointer(lp, 3, gl.FLOAT, false, MORPH_SLOT_STRIDE_BYTES, offset);
        gl.enableVertexAttribArray(lp + 1);
        gl.vertexAttribPointer(lp + 1, 3, gl.FLOAT, false, MORPH_SLOT_STRIDE_BYTES, offset + 12);
      }
    }
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    vs.boundSlots.set(this.slots);
    vs.mode = MODE_SLOTS;
  }

  /** Texture path: builds the texture and the source-vertex attribute on first use; lists the mesh's active targets. */
  private prepareTexture(vs: VaoState): void {
    const gl = this.gl;
    const ms = vs.mesh;
    if (!ms.texture) {
      ms.texture = new MorphTexture(gl, ms.mesh, ms.regionOf, ms.regions, this.maxTextureSize);
      this.storageBytes += ms.texture.bytes;
    }
    if (vs.mode !== MODE_TEXTURE) {
      if (!vs.sourceBuffer) {
        const b = gl.createBuffer();
        if (!b) throw new Error('createBuffer failed');
        gl.bindBuffer(gl.ARRAY_BUFFER, b);
        gl.bufferData(gl.ARRAY_BUFFER, vs.tm.sourceVertex, gl.STATIC_DRAW);
        vs.sourceBuffer = b;
        this.storageBytes += vs.tm.sourceVertex.byteLength;
      }
      for (let k = 0; k < vs.vaos.length; k++) {
        gl.bindVertexArray(vs.vaos[k]!);
        for (let l = MORPH_SLOT_LOCATION + 1; l < MORPH_SLOT_LOCATION + 2 * MORPH_SLOTS; l++) gl.disableVertexAttribArray(l);
        gl.bindBuffer(gl.ARRAY_BUFFER, vs.sourceBuffer);
        gl.enableVertexAttribArray(ATTRIB.a_morphVertex);
        gl.vertexAttribIPointer(ATTRIB.a_morphVertex, 1, gl.UNSIGNED_INT, 0, 0);
      }
      gl.bindVertexArray(null);
      gl.bindBuffer(gl.ARRAY_BUFFER, null);
      vs.mode = MODE_TEXTURE;
      vs.boundSlots.fill(-2);
    }
    const a = this.applied;
    let count = 0;
    ms.weight.fill(0);
    for (let t = 0; t < a.length && count < MORPH_MAX; t++) {
      const w = a[t]!;
      if (w === 0 || ms.regionOf[t]! < 0) continue;
      ms.base[count] = ms.texture.baseOf(t);
      ms.weight[count] = w;
      count++;
    }
    ms.count = count;
  }

  dispose(): void {
    for (const vs of this.vaos.values()) {
      vs.slotBuffer?.dispose();
      this.gl.deleteBuffer(vs.sourceBuffer);
    }
    this.vaos.clear();
    this.passLocations.clear();
    for (const ms of this.meshes) {
      ms.texture?.dispose();
      ms.texture = null;
    }
  }
}
