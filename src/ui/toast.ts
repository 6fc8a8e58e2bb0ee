/**
 * A short notice at the bottom of the page ("Link copied"), gone after a few seconds or on the next one.
 * Plain DOM styled by style.css (.toast); role=status so screen readers say it.
 */
export class Toast {
  private readonly el: HTMLElement;
  private timer = 0;

  constructor(parent: HTMLElement) {
    this.el = document.createElement('div');
    this.el.className = 'toast';
    this.el.id = 'toast';
    this.el.setAttribute('role', 'status');
    this.el.hidden = true;
    parent.appendChild(this.el);
  }

  /** Shows `message` for `ms`; with `add`, after the notice still shown (two notices of one action, such as a drop). */
  show(message: string, ms = 3500, add = false): void {
    this.el.textContent = add && !this.el.hidden && this.el.textContent ? `${this.el.textContent} · ${message}` : message;
    this.el.hidden = false;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      this.el.hidden = true;
    }, ms);
  }
}
