import { findBuiltin } from '../builtins.ts';
import type { WindowResult } from './window.ts';

/**
 * The three.js peer of the crowd part: bench/three-crowd.html (src/bench/three-crowd-page.ts) in a same-origin
 * iframe, out of sight, with a canvas of the page's canvas size, driven through its `window.threeCrowd` hooks
 * with the same window measurement as ours. Owns the iframe: close() removes it (its WebGL context goes with it).
 */

interface ThreeCrowdHooks {
  setCrowd(n: number): void;
  benchWindow(frames: number, timer?: 'auto' | 'wall'): Promise<WindowResult>;
  drawCalls(): number;
}

export class CrowdPeer {
  private constructor(
    private readonly frame: HTMLIFrameElement,
    private readonly hooks: ThreeCrowdHooks,
  ) {}

  /**
   * Opens the peer page on built-in `model` (its file and clip) at width × height pixels; rejects with the page's
   * failure or after `timeoutMs`.
   */
  static async open(model: string, width: number, height: number, timeoutMs = 120_000): Promise<CrowdPeer> {
    const builtin = findBuiltin(model);
    if (!builtin) throw new Error(`the three.js peer has no built-in model ${model}`);
    const frame = document.createElement('iframe');
    frame.title = 'three.js crowd (benchmark peer)';
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    Object.assign(frame.style, { position: 'fixed', left: '-20000px', top: '0', width: `${width}px`, height: `${height}px`, border: '0' });
    const clip = builtin.clip ? `&clip=${encodeURIComponent(builtin.clip)}` : '';
    frame.src = new URL(`bench/three-crowd.html?model=${encodeURIComponent(builtin.url)}${clip}&w=${width}&h=${height}`, document.baseURI).href;
    document.body.appendChild(frame);
    const started = performance.now();
    try {
      for (;;) {
        const doc = frame.contentDocument;
        const state = doc?.documentElement?.dataset.state;
        if (state === 'ready') break;
        if (state === 'error') throw new Error('the three.js peer page failed to load (see its console)');
        if (performance.now() - started > timeoutMs) throw new Error('the three.js peer page did not get ready in time');
        await new Promise((r) => setTimeout(r, 50));
      }
      const hooks = (frame.contentWindow as unknown as { threeCrowd?: ThreeCrowdHooks }).threeCrowd;
      if (!hooks || typeof hooks.benchWindow !== 'function') throw new Error('the three.js peer page has no benchWindow hook');
      return new CrowdPeer(frame, hooks);
    } catch (e) {
      frame.remove();
      throw e;
    }
  }

  setCrowd(n: number): void {
    this.hooks.setCrowd(n);
  }

  measure(frames: number, timer: 'auto' | 'wall'): Promise<WindowResult> {
    return this.hooks.benchWindow(frames, timer);
  }

  close(): void {
    this.frame.remove();
  }
}
