import type { Controller, GUI } from 'lil-gui';
import type { App } from '../app/app.ts';
import { formatCompare, togglePair, type ComparePair } from '../app/compare-state.ts';
import { TECHNIQUES } from '../techniques/index.ts';

/**
 * How the user turns side-by-side compare on and off: the Rendering folder's "compare with…" menu (the
 * single view's technique on the left, the chosen one on the right, or off) and the C key (toggles; it
 * brings back the last pair shown, else the technique against dual-quat). Both go through `app.set`, so the
 * checks, the error messages and the link are the page's usual ones. The last pair is page-wide UI memory
 * (one panel, one keyboard), kept here so the menu and the key share it.
 */

let lastPair: ComparePair | null = null;

/** C: compare off (remembering the pair), or on with the last pair / the default partner. */
export function toggleCompare(app: App): Promise<void> {
  const s = app.state;
  if (s.compare) {
    lastPair = s.compare;
    return app.set({ compare: 'off' });
  }
  return app.set({ compare: formatCompare(togglePair(s.technique, lastPair)) });
}

/** The menu's proxy value: 'off' or the right half's technique. */
interface CompareProxy {
  compareWith: string;
}

/** The "compare with…" menu in `folder`; refresh() brings it in step with the state. */
export class CompareControl {
  private readonly proxy: CompareProxy = { compareWith: 'off' };
  private readonly ctl: Controller;

  constructor(folder: GUI, private readonly app: App) {
    const options = ['off', ...TECHNIQUES.map((t) => t.id)];
    this.ctl = folder.add(this.proxy, 'compareWith', options).name('compare with…  (C)').onChange((id: string) => {
      const s = app.state;
      if (id === 'off') {
        if (s.compare) lastPair = s.compare;
        void app.set({ compare: 'off' });
      } else void app.set({ compare: `${s.compare ? s.compare.a : s.technique},${id}` });
    });
    this.ctl.domElement.title = 'Side by side: the technique on the left, this one on the right, one camera; drag the divider to move it (off: the single view)';
  }

  refresh(): void {
    const pair = this.app.state.compare;
    this.proxy.compareWith = pair ? pair.b : 'off';
    this.ctl.updateDisplay();
  }
}
