import { VIEW_IDS } from '../render/views.ts';
import type { App } from './app.ts';
import { formatCompare } from './compare-state.ts';
import {
  buildManifest,
  manifestText,
  planShots,
  type CameraPose,
  type Manifest,
  type ManifestEntry,
  type PlannedShot,
  type RecordPlan,
  type RecordRequest,
  type Shot,
  type Subject,
} from './record-plan.ts';
import { version as APP_VERSION } from '../../package.json';

/**
 * Deterministic capture of the page's own rendering: a shot is drawn into the drawing buffer at exactly
 * the shot's size (App.fixedSize, independent of the window and of devicePixelRatio), with the clock
 * paused at the shot's time, and read back with readPixels in the same task as the draw, so page
 * chrome (GUI, stats) is never in the image. PNGs are encoded by the browser from the raw pixels. The
 * Record folder and the `screenshots` CLI both capture through here, so for the same states they write
 * the same bytes.
 */

/** One rendered shot. `png` is owned by the caller. */
export interface Capture {
  png: Uint8Array;
  pose: CameraPose;
  settings: Record<string, unknown>;
}

export interface Recording {
  manifest: Manifest;
  /** PNG bytes by file name (manifest entry `file`). */
  files: Map<string, Uint8Array>;
}

/** Called before each shot (done = shots finished so far) and once at the end (done = total). */
export type RecordProgress = (done: number, total: number, shot: PlannedShot | null) => void;

export class Recorder {
  constructor(private readonly app: App) {}

  /** What the loaded model offers for planning. Throws when no model is loaded. */
  subject(): Subject {
    const m = this.app.current;
    if (!m) throw new Error('no model is loaded');
    const info = this.app.info();
    const support = (info.techniqueSupport as Record<string, string | null> | undefined) ?? {};
    return {
      model: m.id,
      clip: info.clip as string | null,
      clips: m.scene.clips.map((c) => ({ name: c.name, duration: c.duration })),
      techniques: info.techniques as string[],
      support,
      views: [...VIEW_IDS],
    };
  }

  /** The shots of a request for the loaded model and what the manifest says about the page. */
  plan(request: RecordRequest): RecordPlan {
    const subject = this.subject();
    return {
      shots: planShots(request, subject),
      app: { name: 'skinlab', version: APP_VERSION },
      renderer: this.app.renderer.rendererName,
      model: request.modelName ?? subject.model,
      settings: this.settings(),
    };
  }

  /**
   * Renders one shot and reads it back. Sets the state (clip, t, technique, view, camera) and the fixed
   * drawing-buffer size and leaves them set; `run` restores the user's state afterwards.
   */
  async capture(shot: Shot): Promise<Capture> {
    const app = this.app;
    if (!app.current) throw new Error('no model is loaded');
    app.fixedSize = { width: shot.width, height: shot.height };
    // A shot is the canvas alone, without the page's overlays: the whole picture is free for the framing
    // (as in `npm run screenshots`, whose page hides them). The page's free rectangles come back after the shot.
    const freeRects = app.camera.freeRects;
    app.camera.freeRects = [];
    try {
      return await this.draw(shot);
    } finally {
      app.camera.freeRects = freeRects;
    }
  }

  /** capture() with the framing's free rectangles cleared. */
  private async draw(shot: Shot): Promise<Capture> {
    const app = this.app;
    // 'auto' re-frames even when the state already says auto: the user may have orbited since.
    if (shot.camera === 'auto') app.frameModel();
    // A pair `A,B` is a side-by-side compare shot (the single view's technique is left as it is).
    const pair = shot.technique.includes(',') ? shot.technique : null;
    const params: Record<string, string | number> = pair ? { t: shot.t, compare: pair, view: shot.view } : { t: shot.t, technique: shot.technique, compare: 'off', view: shot.view };
    if (shot.clip !== null) params.clip = shot.clip;
    if (shot.camera !== 'auto') params.camera = shot.camera;
    await app.set(params);
    const shown = pair ? formatCompare(app.state.compare) : app.state.technique;
    if (shown !== shot.technique || app.state.view !== shot.view) {
      throw new Error(`the page could not draw ${shot.technique} ${shot.view} (it shows ${shown || app.state.technique} ${app.state.view}; see its error message)`);
    }
    // Still the task that drew the frame: the drawing buffer holds it.
    const gl = app.gl;
    const { width, height } = shot;
    if (gl.drawingBufferWidth !== width || gl.drawingBufferHeight !== height) {
      throw new Error(`the drawing buffer is ${gl.drawingBufferWidth}x${gl.drawingBufferHeight}, not ${width}x${height} (larger than this GPU allows?)`);
    }
    const image = new ImageData(width, height);
    const rgba = image.data;
    const rows = new Uint8Array(rgba.length);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, rows);
    // GL rows run bottom-up; PNG rows top-down. The context has no alpha channel: force opaque.
    const stride = width * 4;
    for (let y = 0; y < height; y++) rgba.set(rows.subarray((height - 1 - y) * stride, (height - y) * stride), y * stride);
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
    const cam = app.camera;
    const pose: CameraPose = {
      yaw: round6(cam.yawDeg),
      pitch: round6(cam.pitchDeg),
      distance: round6(cam.distance),
      target: [round6(cam.target[0]!), round6(cam.target[1]!), round6(cam.target[2]!)],
    };
    return { png: await encodePng(image), pose, settings: this.settings() };
  }

  /** State every shot shares, as resolved by the page. */
  settings(): Record<string, unknown> {
    const info = this.app.info();
    const out: Record<string, unknown> = {};
    for (const key of ['influences', 'palette', 'morphs', 'grid', 'skeleton', 'speed']) if (info[key] !== undefined) out[key] = info[key];
    return out;
  }

  /**
   * Records every planned shot into memory and restores the page's state afterwards (also on error or
   * cancel). Aborting `signal` stops after the current shot and rejects with an AbortError.
   */
  async run(request: RecordRequest, onProgress: RecordProgress, signal: AbortSignal): Promise<Recording> {
    const plan = this.plan(request);
    const shots = plan.shots;
    const model = this.app.current;
    const restore = this.saveState();
    const files = new Map<string, Uint8Array>();
    const entries: ManifestEntry[] = [];
    try {
      let done = 0;
      for (const shot of shots) {
        if (signal.aborted) throw new DOMException('recording cancelled', 'AbortError');
        if (this.app.current !== model) throw new Error('another model was loaded while recording; recording stopped');
        onProgress(done, shots.length, shot);
        const { skipped, ...plain } = shot;
        if (skipped !== null) entries.push({ ...plain, status: 'skipped', reason: skipped });
        else {
          const c = await this.capture(plain);
          files.set(plain.file, c.png);
          entries.push({ ...plain, status: 'ok', pose: c.pose });
        }
        done++;
      }
      onProgress(done, shots.length, null);
    } finally {
      await restore();
    }
    return { manifest: buildManifest('app', plan, request, {}, entries), files };
  }

  /** Snapshot of what recording changes; the returned function puts it back and waits for a frame. */
  private saveState(): () => Promise<void> {
    const app = this.app;
    const s = app.state;
    const saved = { clip: s.clip, t: s.t, paused: s.paused, technique: s.technique, compare: formatCompare(s.compare) || 'off', view: s.view, camera: s.camera ? { ...s.camera } : null };
    const time = app.current?.player.time ?? 0;
    const cam = app.camera;
    const pose = { yaw: cam.yawDeg, pitch: cam.pitchDeg, distance: cam.distance, target: [cam.target[0]!, cam.target[1]!, cam.target[2]!], shiftX: cam.shiftX, shiftY: cam.shiftY };
    const size = app.fixedSize;
    const model = app.current;
    return async () => {
      app.fixedSize = size;
      // A model loaded meanwhile brought its own clip and framing: leave those alone.
      if (app.current !== model) return;
      const params: Record<string, string | number | null> = { clip: saved.clip, technique: saved.technique, compare: saved.compare, view: saved.view, t: saved.t };
      await app.set(params);
      s.paused = saved.paused;
      s.camera = saved.camera;
      if (saved.t === null) app.current?.player.setTime(time);
      cam.yawDeg = pose.yaw;
      cam.pitchDeg = pose.pitch;
      cam.distance = pose.distance;
      cam.target[0] = pose.target[0]!;
      cam.target[1] = pose.target[1]!;
      cam.target[2] = pose.target[2]!;
      cam.shiftX = pose.shiftX;
      cam.shiftY = pose.shiftY;
      await app.nextFrame();
    };
  }
}

/**
 * The recording as one .zip: the PNGs and manifest.json at the top level, the same layout the CLI writes
 * into its output folder. PNGs are stored (already compressed); the manifest is deflated. The zip writer is
 * loaded on the first recording, not with the page.
 */
export async function zipRecording(recording: Recording): Promise<Uint8Array> {
  const { zipSync } = await import('fflate');
  const entries: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {};
  for (const [name, png] of recording.files) entries[name] = [png, { level: 0 }];
  entries['manifest.json'] = new TextEncoder().encode(manifestText(recording.manifest));
  return zipSync(entries, { level: 6 });
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Opaque RGBA pixels (top-down rows) → PNG bytes through the browser's encoder. */
async function encodePng(image: ImageData): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas to encode the PNG');
  ctx.putImageData(image, 0, 0);
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new Uint8Array(await blob.arrayBuffer());
}
