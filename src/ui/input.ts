import type { App } from '../app/app.ts';
import { linkTime } from '../app/frame.ts';
import { MODEL_EXTENSIONS } from '../loaders/model-formats.ts';
import { openDrop, openFiles } from './open-files.ts';
import { VIEW_IDS } from '../render/views.ts';
import { TECHNIQUES } from '../techniques/index.ts';
import { toggleCompare } from './compare-controls.ts';
import { exportAndDownload } from './export-glb.ts';
import { savePicture } from './save-picture.ts';
import { shortcutFor } from './shortcuts.ts';
import { PointerGestures } from './touch.ts';

/**
 * Pointer, touch, wheel, keyboard and drag-and-drop input. Camera gestures (ui/touch.ts: drag, pinch,
 * two-finger pan, double tap) move the OrbitCamera directly (view state, not model state); everything else
 * goes through the App or the hooks.
 */
export interface InputHooks {
  toggleHelp(): void;
  toggleChrome(): void;
  dismissError(): void;
  refresh(): void;
  /** L: copy a link that reproduces this view. */
  copyLink(): void;
  /** A short notice (toast): the model files of a drop that were not loaded. */
  notice(message: string): void;
}

export function installInput(app: App, canvas: HTMLCanvasElement, hooks: InputHooks): { openPicker: () => void } {
  // Hidden file input for "Open file…".
  const picker = document.createElement('input');
  picker.type = 'file';
  picker.multiple = true;
  // Models with their companions, several at once: textures, and a .gltf's buffers (.bin) and images.
  picker.accept = [...new Set([...MODEL_EXTENSIONS, '.gltf', '.glb', '.bin', '.png', '.jpg', '.jpeg', '.webp', '.ktx2', '.bmp', '.tga', '.dds'])].join(',');
  picker.style.display = 'none';
  document.body.appendChild(picker);
  picker.addEventListener('change', () => {
    const files = Array.from(picker.files ?? []);
    picker.value = '';
    if (files.length > 0) void openFiles(app, files, hooks.notice);
  });
  const openPicker = (): void => picker.click();

  // Orbit / pan / zoom. The state records the user's view, so a resize or a new frame keeps it.
  // The app records the view (target included) at the precision a link carries and re-places the camera from it.
  const keepCamera = (): void => app.keepCamera();
  const gestures = new PointerGestures({
    orbit: (dx, dy) => app.camera.orbit(-dx * 0.4, dy * 0.4),
    pan: (dx, dy) => {
      const cam = app.camera;
      const scale = (cam.distance * 2 * Math.tan((cam.fovYDeg * Math.PI) / 360)) / Math.max(1, canvas.clientHeight);
      const v = cam.view;
      // Camera right = first row of the view rotation, up = second row.
      for (let k = 0; k < 3; k++) cam.target[k] = cam.target[k]! - dx * scale * v[k * 4]! + dy * scale * v[k * 4 + 1]!;
    },
    zoom: (factor) => app.camera.zoom(factor),
    doubleTap: () => app.frameModel(),
    changed: keepCamera,
  });
  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    gestures.down(e);
  });
  // Look-at follows the pointer while E is held (the key and the last pointer position over the canvas).
  let lookHeld = false;
  let lookX = 0;
  let lookY = 0;
  canvas.addEventListener('pointermove', (e) => {
    const r = canvas.getBoundingClientRect();
    lookX = ((e.clientX - r.left) / Math.max(1, r.width)) * 2 - 1;
    lookY = 1 - ((e.clientY - r.top) / Math.max(1, r.height)) * 2;
    if (lookHeld) app.lookAtPointer(true, lookX, lookY);
    gestures.move(e);
  });
  window.addEventListener('keyup', (e) => {
    if ((e.key === 'e' || e.key === 'E') && lookHeld) {
      lookHeld = false;
      app.lookAtPointer(false, lookX, lookY);
    }
  });
  window.addEventListener('blur', () => {
    lookHeld = false;
    app.lookAtPointer(false, lookX, lookY);
  });
  canvas.addEventListener('pointerup', (e) => gestures.up(e));
  canvas.addEventListener('pointercancel', (e) => gestures.up(e, true));
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      app.camera.zoom(Math.exp(e.deltaY * 0.0015));
      keepCamera();
    },
    { passive: false },
  );
  // Touch double taps are the gestures' own (Chromium also sends a dblclick for them, at times much later).
  canvas.addEventListener('dblclick', () => {
    if (gestures.lastPointerType === 'mouse') app.frameModel();
  });

  // Keyboard.
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const s = app.state;
    const m = app.current;
    // Keys come from one table (shortcuts.ts), which the help lists too; every action is handled here.
    const action = shortcutFor(e.key);
    if (action === null) return;
    switch (action) {
      case 'play':
        if (s.t !== null) {
          s.t = null;
          s.paused = false;
        } else s.paused = !s.paused;
        break;
      case 'step': {
        if (!m) return;
        const step = (e.key === 'ArrowLeft' ? -1 : 1) / 30;
        // In tracks mode `t` is the controller clock (every track at t × speed): stepped, not wrapped.
        const d = m.player.usesTracks ? 0 : m.player.duration;
        let t = (s.t ?? m.player.clockTime) + step;
        if (d > 0) t = ((t % d) + d) % d;
        // Whole microseconds: the time drawn is the one a link carries (linkTime).
        s.t = linkTime(Math.max(0, t));
        s.paused = true;
        break;
      }
      case 'clip': {
        if (!m || m.scene.clips.length === 0) return;
        const n = m.scene.clips.length;
        const i = (m.player.clipIndex + (e.key === '[' ? -1 : 1) + n) % n;
        app.anim.playClip(m.scene.clips[i]!.name);
        break;
      }
      case 'skeleton':
        s.skeleton = !s.skeleton;
        break;
      case 'wireframe':
        s.view = s.view === 'wireframe' ? 'shaded' : 'wireframe';
        break;
      case 'view': {
        const i = VIEW_IDS.indexOf(s.view);
        s.view = VIEW_IDS[(i + (e.shiftKey ? VIEW_IDS.length - 1 : 1)) % VIEW_IDS.length]!;
        break;
      }
      case 'bindPose':
        s.bindPose = !s.bindPose;
        break;
      case 'technique': {
        // Next (Shift: previous) technique the model can use; the GUI follows through refresh().
        const n = TECHNIQUES.length;
        const at = TECHNIQUES.findIndex((t) => t.id === s.technique);
        for (let k = 1; k < n; k++) {
          const t = TECHNIQUES[(at + (e.shiftKey ? n - k : k) + n) % n]!;
          if (app.unsupportedReason(t) === null) {
            void app.set({ technique: t.id });
            break;
          }
        }
        break;
      }
      case 'compare':
        void toggleCompare(app);
        break;
      case 'grid':
        s.grid = !s.grid;
        break;
      case 'shadows':
        s.shadows = !s.shadows;
        break;
      case 'lookAt':
        void app.set({ lookAt: s.lookAt > 0 ? 0 : 1 });
        break;
      case 'lookPointer':
        lookHeld = true;
        app.lookAtPointer(true, lookX, lookY);
        break;
      case 'frame':
        app.frameModel();
        break;
      case 'open':
        openPicker();
        break;
      case 'save':
        void savePicture(app);
        break;
      case 'link':
        hooks.copyLink();
        break;
      case 'export':
        void exportAndDownload(app);
        break;
      case 'chrome':
        hooks.toggleChrome();
        break;
      case 'help':
        hooks.toggleHelp();
        break;
      case 'dismiss':
        hooks.dismissError();
        break;
      default: {
        const unhandled: never = action;
        return unhandled;
      }
    }
    e.preventDefault();
    hooks.refresh();
  });

  // Drag and drop a model with its textures.
  const root = document.documentElement;
  let depth = 0;
  window.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth++;
    root.classList.add('dropping');
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) root.classList.remove('dropping');
  });
  window.addEventListener('dragover', (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    root.classList.remove('dropping');
    openDrop(app, e.dataTransfer, hooks.notice);
  });

  return { openPicker };
}
