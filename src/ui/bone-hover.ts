import type { App } from '../app/app.ts';

/**
 * Bone picking on the view, as modelling tools do it:
 * - hover: while a mouse or pen rests over the canvas with no button pressed, a small label by the pointer
 *   names the bone weighing most at the surface point under it (app/bone-pick.ts); over empty space, while
 *   a button is held (a drag orbits or pans), and for touch there is no label;
 * - click: a press and release of the primary button (or a tap) that never moved CLICK_SLOP CSS pixels away,
 *   without Shift and with no other pointer down, selects the bone under it for the weights view (`bone`,
 *   as the weights view's menu does) and the skeleton overlay's highlight. A click on empty space, or on a
 *   part weighted to no skinning bone (a rigid mesh), keeps the selection, as a click beside the model
 *   leaves a tool's active bone.
 * The pointer is handed to the picker on move; frame() (once per animation frame) runs at most one hit test
 * and places the label. The label is page chrome: hidden with the panels (H, gui=0). Per event nothing is
 * allocated beyond the browser's own; the label's text and place are written only when they change.
 */

/** Farthest a click may move between press and release, CSS pixels. */
const CLICK_SLOP = 4;

export class BoneHover {
  readonly label: HTMLElement;
  private clientX = 0;
  private clientY = 0;
  /** The last pointer position in normalised device coordinates. */
  private readonly at = new Float64Array(2);
  /** Where the label was last placed (client px). */
  private placedX = NaN;
  private placedY = NaN;
  private shown = -2;
  /** The press that may become a click: its pointer (-1: none), where it went down. */
  private downId = -1;
  private downX = 0;
  private downY = 0;
  private pointersDown = 0;

  constructor(private readonly app: App, private readonly canvas: HTMLCanvasElement, parent: HTMLElement) {
    this.label = document.createElement('div');
    this.label.className = 'bone-label';
    this.label.hidden = true;
    this.label.setAttribute('role', 'status');
    parent.appendChild(this.label);
    const picker = app.picker;
    canvas.addEventListener('pointermove', (e) => {
      // A press that wandered CLICK_SLOP away is a drag, even if it comes back.
      if (e.pointerId === this.downId && Math.hypot(e.clientX - this.downX, e.clientY - this.downY) >= CLICK_SLOP) this.downId = -1;
      if (e.pointerType === 'touch' || e.buttons !== 0) {
        picker.leave();
        return;
      }
      this.clientX = e.clientX;
      this.clientY = e.clientY;
      this.toNdc(e.clientX, e.clientY);
      picker.pointer(this.at[0]!, this.at[1]!);
    });
    canvas.addEventListener('pointerleave', () => picker.leave());
    canvas.addEventListener('pointerdown', (e) => {
      this.pointersDown++;
      picker.leave();
      const primary = e.button === 0 && !e.shiftKey && this.pointersDown === 1;
      this.downId = primary ? e.pointerId : -1;
      this.downX = e.clientX;
      this.downY = e.clientY;
    });
    const up = (e: PointerEvent, cancelled: boolean): void => {
      this.pointersDown = Math.max(0, this.pointersDown - 1);
      if (e.pointerId !== this.downId) return;
      this.downId = -1;
      if (cancelled || Math.hypot(e.clientX - this.downX, e.clientY - this.downY) >= CLICK_SLOP) return;
      this.select(e.clientX, e.clientY);
      // The label comes back where the pointer rests (a mouse stays over the view).
      if (e.pointerType !== 'touch') picker.pointer(this.at[0]!, this.at[1]!);
    };
    canvas.addEventListener('pointerup', (e) => up(e, false));
    canvas.addEventListener('pointercancel', (e) => up(e, true));
  }

  /** Once per animation frame: one hit test at most, then the label follows. */
  frame(): void {
    const picker = this.app.picker;
    picker.update();
    const node = picker.hovered;
    if (node !== this.shown) {
      this.shown = node;
      const name = picker.nameOf(node);
      this.label.hidden = name === null;
      if (name !== null) this.label.textContent = name;
    }
    if (node >= 0 && (this.clientX !== this.placedX || this.clientY !== this.placedY)) {
      this.placedX = this.clientX;
      this.placedY = this.clientY;
      this.label.style.transform = `translate(${Math.round(this.clientX + 14)}px, ${Math.round(this.clientY + 16)}px)`;
    }
  }

  /** The click at (clientX, clientY) selects the skinning bone under it; anything else keeps the selection. */
  private select(clientX: number, clientY: number): void {
    const m = this.app.current;
    this.toNdc(clientX, clientY);
    const node = this.app.picker.pickAt(this.at[0]!, this.at[1]!);
    if (!m || node < 0 || !m.bones.includes(node)) return;
    const name = this.app.picker.nameOf(node);
    if (name !== null) void this.app.set({ bone: name });
  }

  /** Client pixels → normalised device coordinates of the canvas (y up), into `at`. */
  private toNdc(clientX: number, clientY: number): void {
    const r = this.canvas.getBoundingClientRect();
    this.at[0] = ((clientX - r.left) / Math.max(1, r.width)) * 2 - 1;
    this.at[1] = 1 - ((clientY - r.top) / Math.max(1, r.height)) * 2;
  }
}
