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

/**
 * Adds the "compare with…" menu to `folder`: the single view's technique (or the pair's left one) against the
 * one chosen, or off. The menu reads the state itself (listen()), so it follows the C key and links.
 */
export function addCompareControl(folder: GUI, app: App): Controller {
  // lil-gui hands onChange the value its getter reads back after the setter ran; the state only changes once
  // app.set has run, so the choice is held here for that moment (else onChange would see the old one).
  let picked: string | null = null;
  const proxy = {
    get compareWith(): string {
      return picked ?? (app.state.compare ? app.state.compare.b : 'off');
    },
    set compareWith(id: string) {
      picked = id;
    },
  };
  const options = ['off', ...TECHNIQUES.map((t) => t.id)];
  const ctl = folder.add(proxy, 'compareWith', options).name('compare with…  (C)').listen().onChange((id: string) => {
    picked = null;
    const s = app.state;
    if (id === 'off') {
      if (s.compare) lastPair = s.compare;
      void app.set({ compare: 'off' });
    } else void app.set({ compare: `${s.compare ? s.compare.a : s.technique},${id}` });
  });
  ctl.domElement.title = 'Side by side: the technique on the left, this one on the right, one camera; drag the divider to move it (off: the single view)';
  return ctl;
}
