/**
 * A short notice at the bottom of the page ("Link copied"), gone after a few seconds or on the next one.
 * Plain DOM with its own inline style (no stylesheet rule needed); role=status so screen readers say it.
 */
export class Toast {
  private readonly el: HTMLElement;
  private timer = 0;

  constructor(parent: HTMLElement) {
    this.el = document.createElement('div');
    this.el.className = 'toast';
    this.el.id = 'toast';
    this.el.setAttribute('role', 'status');
    Object.assign(this.el.style, {
      position: 'fixed',
      left: '50%',
      bottom: '48px',
      transform: 'translateX(-50%)',
      maxWidth: 'min(90vw, 560px)',
      padding: '8px 14px',
      borderRadius: '6px',
      background: 'rgba(20, 22, 28, 0.92)',
      color: '#e8eaf0',
      font: '13px/1.4 system-ui, sans-serif',
      boxShadow: '0 2px 10px rgba(0,0,0,0.4)',
      zIndex: '1003',
      pointerEvents: 'none',
      wordBreak: 'break-all',
    });
    this.el.hidden = true;
    parent.appendChild(this.el);
  }

  show(message: string, ms = 3500): void {
    this.el.textContent = message;
    this.el.hidden = false;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      this.el.hidden = true;
    }, ms);
  }
}
