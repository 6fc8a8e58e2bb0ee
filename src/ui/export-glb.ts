import type GUI from 'lil-gui';
import type { App } from '../app/app.ts';
import { formatBytes } from '../app/model-resources.ts';
import { downloadBlob } from './download.ts';

/**
 * Export .glb in the page: the panel's button and status lines, the X key's action (`exportAndDownload`), and
 * `window.skinlab.exportGlb()` for scripts and tests (the same export, no download). The work is the app's
 * (App.exportGlb → src/app/export-glb.ts); this file only shows it: progress and the result with the
 * exporter's warnings under the button (as the Record folder shows its progress), failures in the page's error
 * banner. Plain DOM; no GL.
 */

/** What `skinlab.exportGlb()` resolves with. */
export interface ExportGlbResult {
  /** Size of the .glb written, bytes. */
  readonly bytes: number;
  readonly warnings: string[];
}

/** The status lines under the panel's button (set by mountExportGlb; absent without a panel). */
let statusEl: HTMLElement | null = null;
let running = false;

function status(text: string, warnings: readonly string[] = []): void {
  if (!statusEl) return;
  statusEl.hidden = false;
  statusEl.replaceChildren();
  const head = document.createElement('div');
  head.textContent = text;
  statusEl.appendChild(head);
  for (const w of warnings) {
    const line = document.createElement('div');
    line.textContent = `⚠ ${w}`;
    line.style.color = '#f5c26b';
    statusEl.appendChild(line);
  }
}

/**
 * Exports the model drawn and downloads `<model name>.glb` (button, X key). One at a time: a second call while
 * one runs does nothing. Resolves with the result, or null when nothing was exported (said in the error banner).
 */
export async function exportAndDownload(app: App): Promise<ExportGlbResult | null> {
  if (running) return null;
  running = true;
  try {
    if (!app.current) {
      app.fail('Export .glb: no model is loaded');
      return null;
    }
    status(`Exporting ${app.current.label}…`);
    const out = await app.exportGlb();
    downloadBlob(new Blob([out.bytes as BlobPart], { type: 'model/gltf-binary' }), out.name);
    for (const w of out.warnings) console.warn(`${out.name}: ${w}`);
    const n = out.warnings.length;
    status(`${out.name}: ${formatBytes(out.bytes.length)} downloaded${n ? `, ${n} warning${n > 1 ? 's' : ''}:` : ''}`, out.warnings);
    return { bytes: out.bytes.length, warnings: out.warnings };
  } catch (e) {
    status('Export failed (see the message at the top)');
    app.fail(`Export .glb: ${(e as Error).message}`);
    return null;
  } finally {
    running = false;
  }
}

/** `skinlab.exportGlb()`: exports without downloading; rejects with the error the page shows. */
export async function exportGlbForScript(app: App): Promise<ExportGlbResult> {
  const out = await app.exportGlb();
  return { bytes: out.bytes.length, warnings: out.warnings };
}

/** Adds "Export .glb (X)" and its status lines to `gui` (window.skinlab.exportGlb is exportGlbForScript, wired by main.ts). */
export function mountExportGlb(gui: GUI, app: App): void {
  const actions = { exportGlb: (): void => void exportAndDownload(app) };
  const button = gui.add(actions, 'exportGlb').name('Export .glb  (X)');
  button.domElement.title = 'The model as loaded (meshes, skin, clips, morph targets, textures) as one binary glTF file';
  const box = document.createElement('div');
  box.className = 'export-status';
  Object.assign(box.style, { padding: '2px 8px 6px', fontSize: '11px', lineHeight: '1.45', whiteSpace: 'normal', overflowWrap: 'anywhere' });
  box.hidden = true;
  button.domElement.after(box);
  statusEl = box;
}
