import { mat4, vec3 } from 'gl-matrix';
import { FULL_VIEW, type NdcRect } from './free-rect.ts';

/**
 * Orbit camera around a target point, world space, right-handed, +Y up.
 * yaw 0 looks from +Z towards -Z (the front of a character facing +Z); positive yaw orbits towards +X;
 * positive pitch looks down from above. Distance in world units. Matrices are written into owned
 * buffers by update(); nothing allocates per frame.
 */
export class OrbitCamera {
  yawDeg = 25;
  pitchDeg = 12;
  distance = 3;
  readonly target = vec3.fromValues(0, 1, 0);
  fovYDeg = 40;
  aspect = 1;
  near = 0.01;
  far = 100;
  /** The far plane reaches at least this far (world units; 0: only its usual 20 distances): a view across a wide crowd. */
  reach = 0;
  /**
   * The distances zoom() keeps to (world units), set for the model in view (app/camera-placement.ts): never
   * through the target nor so far that panning loses its precision.
   */
  minDistance = 1e-4;
  maxDistance = 1e6;

  /**
   * Where frameBox may put the model (render/free-rect.ts freeRects: the canvas minus the page's overlays, in NDC);
   * empty: the whole canvas, exactly as without overlays. Set by the page; read at the next framing.
   */
  freeRects: readonly NdcRect[] = [];
  /** The projection's centre, in NDC (0, 0: the canvas centre): the target is drawn there. Set by frameBox and fitShift. */
  shiftX = 0;
  shiftY = 0;

  readonly view = mat4.create();
  readonly projection = mat4.create();
  readonly viewProj = mat4.create();
  readonly position = vec3.create();

  /** Frames a bounding sphere: the whole sphere fits the narrower field of view with a margin. */
  frame(center: ArrayLike<number>, radius: number): void {
    vec3.set(this.target, center[0]!, center[1]!, center[2]!);
    const r = Math.max(radius, 1e-6);
    const halfY = (this.fovYDeg * Math.PI) / 360;
    const halfX = Math.atan(Math.tan(halfY) * Math.max(this.aspect, 1e-3));
    const half = Math.min(halfY, halfX);
    this.distance = (r / Math.sin(half)) * 1.08;
  }

  /**
   * Frames an axis-aligned box from the current yaw and pitch: the nearest distance at which all eight
   * corners, pushed out by `margin` from the centre, project inside the view. Tighter than the bounding
   * sphere for tall figures.
   */
  frameBox(min: ArrayLike<number>, max: ArrayLike<number>, margin = 1.08): void {
    vec3.set(this.target, (min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2);
    this.distance = this.fitFree(min, max, margin);
  }

  /**
   * For a view placed from a setting (distance kept): the projection's centre moves to the free rectangle the
   * box would be framed in (see fitFree), so the target is drawn clear of the overlays there too.
   */
  fitShift(min: ArrayLike<number>, max: ArrayLike<number>, margin = 1.08): void {
    vec3.copy(KEPT_TARGET, this.target);
    vec3.set(this.target, (min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2);
    this.fitFree(min, max, margin);
    vec3.copy(this.target, KEPT_TARGET);
  }

  /**
   * The distance framing the box about the current target in the best of `freeRects` (the one where it is
   * drawn largest), and the shift that centres the projection on that rectangle. Without free rectangles: the
   * whole canvas, no shift (the framing of a page without overlays, unchanged).
   */
  private fitFree(min: ArrayLike<number>, max: ArrayLike<number>, margin: number): number {
    const rects = this.freeRects.length > 0 ? this.freeRects : FULL_RECTS;
    let best = Infinity;
    for (const r of rects) {
      const d = this.fitDistance(min, max, margin, (r.x1 - r.x0) / 2, (r.y1 - r.y0) / 2);
      if (d < best) {
        best = d;
        this.shiftX = (r.x0 + r.x1) / 2;
        this.shiftY = (r.y0 + r.y1) / 2;
      }
    }
    return best;
  }

  /** The nearest distance at which the box's corners, pushed out by `margin`, project within ±halfX, ±halfY (NDC) of the projection's centre. */
  private fitDistance(min: ArrayLike<number>, max: ArrayLike<number>, margin: number, halfX: number, halfY: number): number {
    const yaw = (this.yawDeg * Math.PI) / 180;
    const pitch = (this.pitchDeg * Math.PI) / 180;
    // Camera basis: o from the target towards the camera, r right, u up.
    const ox = Math.cos(pitch) * Math.sin(yaw);
    const oy = Math.sin(pitch);
    const oz = Math.cos(pitch) * Math.cos(yaw);
    const rx = Math.cos(yaw);
    const rz = -Math.sin(yaw);
    const ux = oy * rz;
    const uy = oz * rx - ox * rz;
    const uz = -oy * rx;
    const tanY = Math.tan((this.fovYDeg * Math.PI) / 360) * halfY;
    const tanX = Math.tan((this.fovYDeg * Math.PI) / 360) * Math.max(this.aspect, 1e-3) * halfX;
    let d = 1e-6;
    for (let i = 0; i < 8; i++) {
      const cx = ((i & 1 ? max[0]! : min[0]!) - this.target[0]!) * margin;
      const cy = ((i & 2 ? max[1]! : min[1]!) - this.target[1]!) * margin;
      const cz = ((i & 4 ? max[2]! : min[2]!) - this.target[2]!) * margin;
      const x = cx * rx + cz * rz;
      const y = cx * ux + cy * uy + cz * uz;
      const z = cx * ox + cy * oy + cz * oz;
      d = Math.max(d, z + Math.abs(x) / tanX, z + Math.abs(y) / tanY);
    }
    return d;
  }

  orbit(dxDeg: number, dyDeg: number): void {
    this.yawDeg = (((this.yawDeg + dxDeg) % 360) + 540) % 360 - 180;
    this.pitchDeg = Math.max(-89, Math.min(89, this.pitchDeg + dyDeg));
  }

  /** Multiplies the distance by `factor`, kept within [minDistance, maxDistance] (a distance already outside moves only towards it). */
  zoom(factor: number): void {
    const d = this.distance * factor;
    if (factor < 1) this.distance = Math.min(this.distance, Math.max(this.minDistance, d));
    else this.distance = Math.max(this.distance, Math.min(this.maxDistance, d));
  }

  /** The inputs of the last update(); update() returns early when none changed (no work, no garbage). */
  private readonly lastInputs = new Float64Array(11).fill(NaN);

  /** Recomputes view, projection and position from yaw, pitch, distance, target, fov and aspect. */
  update(): void {
    const last = this.lastInputs;
    if (
      last[0] === this.yawDeg &&
      last[1] === this.pitchDeg &&
      last[2] === this.distance &&
      last[3] === this.target[0] &&
      last[4] === this.target[1] &&
      last[5] === this.target[2] &&
      last[6] === this.aspect &&
      last[7] === this.fovYDeg &&
      last[8] === this.reach &&
      last[9] === this.shiftX &&
      last[10] === this.shiftY
    ) {
      return;
    }
    last[0] = this.yawDeg;
    last[1] = this.pitchDeg;
    last[2] = this.distance;
    last[3] = this.target[0]!;
    last[4] = this.target[1]!;
    last[5] = this.target[2]!;
    last[6] = this.aspect;
    last[7] = this.fovYDeg;
    last[8] = this.reach;
    last[9] = this.shiftX;
    last[10] = this.shiftY;
    const yaw = (this.yawDeg * Math.PI) / 180;
    const pitch = (this.pitchDeg * Math.PI) / 180;
    const c = Math.cos(pitch);
    vec3.set(
      this.position,
      this.target[0]! + this.distance * c * Math.sin(yaw),
      this.target[1]! + this.distance * Math.sin(pitch),
      this.target[2]! + this.distance * c * Math.cos(yaw),
    );
    this.near = Math.max(this.distance * 0.01, 1e-4);
    this.far = Math.max(this.distance * 20, this.reach);
    mat4.lookAt(this.view, this.position, this.target, UP);
    mat4.perspective(this.projection, (this.fovYDeg * Math.PI) / 180, this.aspect, this.near, this.far);
    // An off-centre projection: x_ndc and y_ndc gain the shift (clip x += shiftX · w, w = −z_view).
    if (this.shiftX !== 0 || this.shiftY !== 0) {
      this.projection[8] = -this.shiftX;
      this.projection[9] = -this.shiftY;
    }
    mat4.multiply(this.viewProj, this.projection, this.view);
  }
}

const UP = vec3.fromValues(0, 1, 0);
const FULL_RECTS: readonly NdcRect[] = [FULL_VIEW];
/** fitShift's copy of the target while it fits (no allocation per placement). */
const KEPT_TARGET = vec3.create();
