/**
 * Keyboard shortcuts after a panel action. lil-gui stops every key event inside a controller (so typing in a
 * field never fires a shortcut), which also means that a button, checkbox or menu keeps the keys once clicked:
 * after *Frame model* `K` did nothing, after *Open file…* `Space` pressed the button again, after ticking a
 * checkbox `Space` ticked it back. So once a control inside `root` has done its work — a click on a button or
 * checkbox, a change of a menu or slider, Enter or Escape in a text field — the focus goes to `canvas`, where
 * the page's shortcuts (input.ts) hear every key. While a text or number field has the focus, keys stay
 * there. Listens on `root` (capture phase) for the page's lifetime; allocates nothing per event beyond the
 * browser's own.
 */

/** Input types the user types into: the focus stays while they have it. */
const TYPING = new Set(['text', 'number', 'search', 'email', 'password', 'url', 'tel']);

/** The element takes typed text (keys belong to it while it has the focus). */
export function takesTyping(el: Element | null): boolean {
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement) return TYPING.has(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}

export function returnFocusAfterPanel(root: HTMLElement, canvas: HTMLElement): void {
  // At once, in the capture phase: the control still gets its click or change (moving the focus cancels
  // neither), and a key pressed right after it already finds the canvas.
  const toCanvas = (target: EventTarget | null): void => {
    if (takesTyping(target as Element) || takesTyping(document.activeElement)) return;
    canvas.focus({ preventScroll: true });
  };
  // A click on a menu opens it: its change moves the focus, not the click.
  root.addEventListener('click', (e) => (e.target instanceof HTMLSelectElement ? undefined : toCanvas(e.target)), true);
  root.addEventListener('change', (e) => toCanvas(e.target), true);
  root.addEventListener(
    'keydown',
    (e) => {
      if (!takesTyping(e.target as Element) || (e.key !== 'Enter' && e.key !== 'Escape')) return;
      // Enter commits the field (lil-gui applies it on change, which the blur fires); Escape leaves it.
      (e.target as HTMLElement).blur();
      canvas.focus({ preventScroll: true });
    },
    true,
  );
}
