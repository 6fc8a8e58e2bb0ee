import type { App } from '../app/app.ts';
import { linkTime } from '../app/frame.ts';
import { LABEL, ROW, trackOfRow, WIDTH, type Timeline } from './timeline.ts';

/**
 * Seeking on the tracks timeline (timeline.ts), as a media player's scrub bar: a press on a row's bar moves
 * the time there, and while the button stays down the time follows the pointer (pointer capture: the drag
 * may leave the bar; left of the bar is the clip's start, right of it its end). The time is pinned as
 * the `←` `→` frame steps pin it (state `t`, whole microseconds, paused) so the frame drawn is the one a
 * link carries. On release, playback resumes from there if it was playing when the press began; a paused
 * model stays paused at the new time (the link then carries it). Afterwards the focus is on the view, so the
 * keyboard shortcuts work at once. One clip: the row is the clip, the time its position. Tracks mode (`t`
 * is the controller clock): the clock moves so that the pressed row's track reaches the pointer's position
 * (seekClock), and every other track moves with it as a `t` change moves them.
 */

/**
 * The clock that puts a track at `fraction` (0..1) of its clip. One clip (`tracks` false): fraction ·
 * duration. Tracks mode: the clock moves by the track's time difference over its speed, so the other
 * tracks keep their relation to it; a clock that would fall below 0 goes forward by whole periods of the
 * track (duration / |speed|). A track of speed 0 or duration 0 leaves the clock as it is.
 */
export function seekClock(tracks: boolean, clock: number, fraction: number, duration: number, trackTime: number, trackSpeed: number): number {
  const f = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
  if (!tracks) return f * Math.max(0, duration);
  if (!(duration > 0) || trackSpeed === 0 || !Number.isFinite(trackSpeed)) return clock;
  let c = clock + (f * duration - trackTime) / trackSpeed;
  if (c < 0) {
    const period = duration / Math.abs(trackSpeed);
    c += Math.ceil(-c / period) * period;
  }
  return c;
}

/** The fraction of the bar at x CSS pixels from the timeline's left edge (clamped to 0..1). */
export function barFraction(x: number): number {
  const f = (x - LABEL) / (WIDTH - LABEL - 2);
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

/**
 * Wires seeking to `line`'s strip; `view` takes the focus after a seek. The pointer over the bars shows the
 * seek cursor and a guide line where a click would seek (Timeline.hoverX).
 */
export function installTimelineSeek(app: App, line: Timeline, view: HTMLElement): void {
  const timeline = line.element;
  // An SVG element's tooltip is its <title> child.
  const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
  title.textContent = 'Click or drag to seek';
  timeline.prepend(title);
  let dragging = -1;
  let track = -1;
  let wasPlaying = false;
  const seek = (e: PointerEvent): void => {
    const m = app.current;
    if (!m || track < 0) return;
    const r = timeline.getBoundingClientRect();
    const c = m.player.controller;
    const tracks = m.player.usesTracks;
    const clock = seekClock(tracks, m.player.clockTime, barFraction(e.clientX - r.left), tracks ? c.trackDuration(track) : m.player.duration, c.trackTime(track), c.trackSpeed(track));
    app.state.t = linkTime(Math.max(0, clock));
    app.state.paused = true;
  };
  timeline.addEventListener('pointerdown', (e) => {
    const m = app.current;
    if (!m || e.button !== 0 || dragging >= 0) return;
    const r = timeline.getBoundingClientRect();
    track = trackOfRow(m.player.controller, Math.floor((e.clientY - r.top) / ROW));
    if (track < 0) return;
    e.preventDefault();
    dragging = e.pointerId;
    timeline.setPointerCapture(e.pointerId);
    wasPlaying = app.state.t === null && !app.state.paused;
    seek(e);
    app.view.stateChanged();
  });
  timeline.addEventListener('pointermove', (e) => {
    line.hoverX = e.clientX - timeline.getBoundingClientRect().left;
    if (e.pointerId === dragging) seek(e);
  });
  timeline.addEventListener('pointerleave', () => {
    line.hoverX = -1;
  });
  const end = (e: PointerEvent): void => {
    if (e.pointerId !== dragging) return;
    dragging = -1;
    if (timeline.hasPointerCapture(e.pointerId)) timeline.releasePointerCapture(e.pointerId);
    if (wasPlaying) {
      // The clock is at the pinned time: unpinned, it plays on from there.
      app.state.t = null;
      app.state.paused = false;
    }
    view.focus({ preventScroll: true });
    app.view.stateChanged();
  };
  timeline.addEventListener('pointerup', end);
  timeline.addEventListener('pointercancel', end);
}
