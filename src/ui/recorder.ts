import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { App } from '../app/app.ts';
import { Recorder, zipRecording } from '../app/record.ts';
import { modelStem, parseCamera, parseFrames, parseSize, parseTimes, RecordRequestError, slug, type RecordApi, type RecordRequest } from '../app/record-plan.ts';
import { VIEW_IDS } from '../render/views.ts';
import { TECHNIQUES } from '../techniques/index.ts';
import { bytesToBase64 } from '../model/base64.ts';
import { downloadBlob } from './download.ts';

/**
 * The "Record" folder of the panel: the user picks techniques, times (a list or N evenly spaced frames),
 * clips, size, views and cameras; Record renders every state through the app's Recorder (no GL here)
 * and downloads one .zip with the PNGs and manifest.json. A progress bar and Cancel show while it runs;
 * the page's state is restored afterwards.
 *
 * Also adds the Recorder's entry points to `api` (window.skinlab): `recordPlan` and `capture`, which the
 * `screenshots` CLI drives (RecordApi in src/app/record-plan.ts).
 */
export function mountRecorder(gui: GUI, app: App, api: object): RecorderPanel {
  const recorder = new Recorder(app);
  const hooks: RecordApi = {
    recordPlan: (request) => recorder.plan(request),
    capture: async (shot) => {
      const c = await recorder.capture(shot);
      return { png: bytesToBase64(c.png), pose: c.pose, settings: c.settings };
    },
  };
  Object.assign(api, hooks);
  return new RecorderPanel(gui, app, recorder);
}

export class RecorderPanel {
  readonly folder: GUI;
  private readonly proxy = {
    clips: 'current',
    timeMode: 'frames',
    times: '0, 0.5, 1',
    frames: 3,
    size: '800x600',
    cameras: 'auto',
    record: (): void => void this.start(),
    cancel: (): void => this.abort?.abort(),
  };
  private readonly techniques: Record<string, boolean> = {};
  private readonly views: Record<string, boolean> = {};
  private readonly timesCtl: Controller;
  private readonly framesCtl: Controller;
  private readonly recordCtl: Controller;
  private readonly cancelCtl: Controller;
  private readonly bar: HTMLDivElement;
  private readonly label: HTMLDivElement;
  private readonly progressBox: HTMLDivElement;
  private abort: AbortController | null = null;

  constructor(
    gui: GUI,
    private readonly app: App,
    private readonly recorder: Recorder,
  ) {
    const p = this.proxy;
    this.folder = gui.addFolder('Record');
    this.folder.add(p, 'clips', { 'current clip': 'current', 'all clips': 'all' }).name('clips');
    this.folder.add(p, 'timeMode', { 'N evenly spaced frames': 'frames', 'list of times': 'list' }).name('times').onChange(() => this.showTimeControls());
    this.framesCtl = this.folder.add(p, 'frames', 1, 120, 1).name('frames per clip');
    this.timesCtl = this.folder.add(p, 'times').name('times (s)');
    this.folder.add(p, 'size').name('size (px)');
    this.folder.add(p, 'cameras').name('cameras (; list)');
    const techniques = this.folder.addFolder('techniques');
    for (const t of TECHNIQUES) {
      this.techniques[t.id] = true;
      techniques.add(this.techniques, t.id).name(t.id);
    }
    techniques.close();
    const views = this.folder.addFolder('views');
    for (const v of VIEW_IDS) {
      this.views[v] = v === 'shaded';
      views.add(this.views, v).name(v);
    }
    views.close();
    this.recordCtl = this.folder.add(p, 'record').name('Record → .zip');
    this.cancelCtl = this.folder.add(p, 'cancel').name('Cancel recording');

    this.progressBox = document.createElement('div');
    this.progressBox.className = 'record-progress';
    Object.assign(this.progressBox.style, { padding: '4px 8px 8px', display: 'none' });
    const track = document.createElement('div');
    Object.assign(track.style, { height: '6px', background: '#333a44', borderRadius: '3px', overflow: 'hidden' });
    this.bar = document.createElement('div');
    Object.assign(this.bar.style, { height: '100%', width: '0%', background: '#f5a25d' });
    track.appendChild(this.bar);
    this.label = document.createElement('div');
    Object.assign(this.label.style, { fontSize: '11px', marginTop: '4px', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' });
    this.progressBox.append(track, this.label);
    this.folder.$children.appendChild(this.progressBox);

    this.showTimeControls();
    this.setRunning(false);
    this.folder.close();
  }

  get running(): boolean {
    return this.abort !== null;
  }

  /** The request the controls describe; throws RecordRequestError with a message for the user. */
  request(): RecordRequest {
    const p = this.proxy;
    const techniques = TECHNIQUES.map((t) => t.id).filter((id) => this.techniques[id]);
    const views = VIEW_IDS.filter((v) => this.views[v]);
    if (techniques.length === 0) throw new RecordRequestError('Record: tick at least one technique');
    if (views.length === 0) throw new RecordRequestError('Record: tick at least one view');
    const cameras = p.cameras.split(';').map(parseCamera);
    return {
      clips: p.clips === 'all' ? ['all'] : [],
      times: p.timeMode === 'list' ? parseTimes(p.times) : [],
      frames: p.timeMode === 'frames' ? parseFrames(p.frames) : null,
      techniques: techniques.length === TECHNIQUES.length ? 'all' : techniques,
      views,
      cameras,
      size: parseSize(p.size),
    };
  }

  private showTimeControls(): void {
    const frames = this.proxy.timeMode === 'frames';
    this.framesCtl.show(frames);
    this.timesCtl.show(!frames);
  }

  private setRunning(running: boolean): void {
    this.recordCtl.enable(!running);
    this.cancelCtl.show(running);
    if (running) this.progressBox.style.display = 'block';
  }

  private progress(done: number, total: number, text: string): void {
    this.bar.style.width = `${total > 0 ? ((100 * done) / total).toFixed(1) : 0}%`;
    this.label.textContent = text;
  }

  /** Records with the current controls and downloads the .zip; errors go to the page's error banner. */
  async start(): Promise<void> {
    if (this.running) return;
    let request: RecordRequest;
    try {
      request = this.request();
      this.recorder.plan(request);
    } catch (e) {
      this.app.fail((e as Error).message);
      return;
    }
    const abort = new AbortController();
    this.abort = abort;
    this.setRunning(true);
    try {
      const recording = await this.recorder.run(
        request,
        (done, total, shot) => this.progress(done, total, shot ? `${done + 1} / ${total}  ${shot.file}` : `${total} / ${total}  zipping…`),
        abort.signal,
      );
      const zip = await zipRecording(recording);
      const ok = recording.manifest.shots.filter((s) => s.status === 'ok').length;
      const skipped = recording.manifest.shots.length - ok;
      this.progress(1, 1, `${ok} images${skipped ? `, ${skipped} skipped` : ''} → ${download(zip, zipName(recording.manifest.model))}`);
    } catch (e) {
      if ((e as Error).name === 'AbortError') this.progress(0, 1, 'cancelled');
      else {
        this.progress(0, 1, 'failed');
        this.app.fail(`Record: ${(e as Error).message}`);
      }
    } finally {
      this.abort = null;
      this.setRunning(false);
    }
  }
}

/** `skinlab-<model>-<yyyymmdd-hhmmss>.zip` in local time. */
function zipName(model: string): string {
  const stem = slug(modelStem(model));
  const d = new Date();
  const two = (n: number): string => String(n).padStart(2, '0');
  return `skinlab-${stem}-${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}.zip`;
}

/** Saves the zip through a temporary link (download.ts); returns the file name. */
function download(bytes: Uint8Array, name: string): string {
  downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), name);
  return name;
}
