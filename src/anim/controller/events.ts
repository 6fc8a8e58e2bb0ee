/**
 * Event pool of the animation controller (D3DX KeyTrackSpeed / KeyTrackWeight / KeyTrackPosition /
 * KeyTrackEnable / KeyPriorityBlend): changes scheduled on the controller clock.
 *
 * Contract
 * - A fixed pool of EVENT_CAPACITY events, allocated once; schedule() beyond it throws (scheduling is a
 *   setup or user action, never per frame). Events are kept sorted by start (equal starts: in the order
 *   they were scheduled), so process() visits them in time order.
 * - Weight, speed and priority-blend events interpolate from the property's value at their start to the
 *   target over `duration` seconds of controller time, linearly or with smoothstep (3u² − 2u³, 'ease');
 *   they then hold the target and retire. The start value is captured when the event becomes active: at
 *   schedule() when start ≤ the clock already, else in the advance that reaches start.
 * - Position and enable events act once, in the advance that reaches their start (or the next advance,
 *   when scheduled at or before the current clock). A position event places the track so that its time
 *   at controller time c is position + (c − start) · speed.
 * - Several events on one track and property: when an event becomes active, the active ones with an
 *   earlier (or equal, scheduled earlier) start retire, so the later start wins; an event that becomes
 *   active after one with a later start is already running retires at once.
 * - process() allocates nothing; it reads and writes the TrackTable and the priority-blend slot directly.
 */

import type { TrackTable } from './tracks.ts';

export const EVENT_CAPACITY = 64;

export const EV_WEIGHT = 0;
export const EV_SPEED = 1;
export const EV_PRIORITY_BLEND = 2;
export const EV_POSITION = 3;
export const EV_ENABLE = 4;

/** Called when a position event acts: tracks.time[track] holds the new time (not yet placed). */
export interface EventHost {
  positionEvent(track: number): void;
}

export class EventPool {
  count = 0;
  private readonly track = new Int16Array(EVENT_CAPACITY);
  private readonly kind = new Uint8Array(EVENT_CAPACITY);
  private readonly ease = new Uint8Array(EVENT_CAPACITY);
  private readonly active = new Uint8Array(EVENT_CAPACITY);
  private readonly retired = new Uint8Array(EVENT_CAPACITY);
  private readonly start = new Float64Array(EVENT_CAPACITY);
  private readonly duration = new Float64Array(EVENT_CAPACITY);
  private readonly target = new Float64Array(EVENT_CAPACITY);
  private readonly from = new Float64Array(EVENT_CAPACITY);

  /** `state[stateSlot]` is the priority blend; `state[clockSlot]` the controller clock. */
  constructor(
    private readonly tracks: TrackTable,
    private readonly state: Float64Array,
    private readonly clockSlot: number,
    private readonly blendSlot: number,
    private readonly host: EventHost,
  ) {}

  /** Schedules an event (track -1 for the priority blend). Throws when the pool is full. */
  schedule(kind: number, track: number, target: number, start: number, duration: number, ease: boolean): void {
    const n = this.count;
    if (n >= EVENT_CAPACITY) {
      throw new Error(
        `AnimController: the event pool is full (${EVENT_CAPACITY} pending events); unkey events or let them finish before scheduling more`,
      );
    }
    // Insert after every event starting at or before `start`.
    let i = n;
    while (i > 0 && this.start[i - 1] > start) i--;
    this.shift(i, n);
    this.track[i] = track;
    this.kind[i] = kind;
    this.ease[i] = ease ? 1 : 0;
    this.active[i] = 0;
    this.retired[i] = 0;
    this.start[i] = start;
    this.duration[i] = duration > 0 ? duration : 0;
    this.target[i] = target;
    this.from[i] = 0;
    this.count = n + 1;
    if (start <= this.state[this.clockSlot] && kind <= EV_PRIORITY_BLEND) {
      this.activate(i);
      this.compact();
    }
  }

  /** Removes every event of `track` (weight, speed, position, enable). */
  unkeyTrack(track: number): void {
    for (let i = 0; i < this.count; i++) if (this.track[i] === track && this.kind[i] !== EV_PRIORITY_BLEND) this.retired[i] = 1;
    this.compact();
  }

  clear(): void {
    this.count = 0;
  }

  /** Applies every event whose start the clock (state[clockSlot]) has reached; see the file contract. */
  process(): void {
    const now = this.state[this.clockSlot];
    const tracks = this.tracks;
    let any = false;
    for (let i = 0; i < this.count; i++) {
      const start = this.start[i];
      if (start > now) break;
      if (this.retired[i] === 1) continue;
      const kind = this.kind[i];
      const t = this.track[i];
      any = true;
      if (kind === EV_POSITION) {
        tracks.time[t] = this.target[i];
        tracks.moveFrom[t] = start;
        this.host.positionEvent(t);
        this.retired[i] = 1;
        continue;
      }
      if (kind === EV_ENABLE) {
        tracks.enabled[t] = this.target[i] !== 0 ? 1 : 0;
        this.retired[i] = 1;
        continue;
      }
      if (this.active[i] === 0 && !this.activate(i)) continue;
      const d = this.duration[i];
      let u = d > 0 ? (now - start) / d : 1;
      let value: number;
      if (u >= 1 - 1e-12) {
        value = this.target[i];
        this.retired[i] = 1;
      } else {
        if (u < 0) u = 0;
        if (this.ease[i] === 1) u = u * u * (3 - 2 * u);
        const a = this.from[i];
        value = a + (this.target[i] - a) * u;
      }
      if (kind === EV_WEIGHT) tracks.weight[t] = value;
      else if (kind === EV_SPEED) tracks.speed[t] = value;
      else this.state[this.blendSlot] = value;
    }
    if (any) this.compact();
  }

  /** Captures the start value and retires the overridden events; false when event i itself lost. */
  private activate(i: number): boolean {
    const kind = this.kind[i];
    const t = this.track[i];
    for (let j = 0; j < this.count; j++) {
      if (j === i || this.active[j] === 0 || this.retired[j] === 1) continue;
      if (this.kind[j] !== kind || this.track[j] !== t) continue;
      if (j < i) this.retired[j] = 1;
      else {
        this.retired[i] = 1;
        return false;
      }
    }
    this.active[i] = 1;
    const tracks = this.tracks;
    this.from[i] = kind === EV_WEIGHT ? tracks.weight[t] : kind === EV_SPEED ? tracks.speed[t] : this.state[this.blendSlot];
    return true;
  }

  /** Opens slot i by moving events i..n-1 up one. */
  private shift(i: number, n: number): void {
    this.track.copyWithin(i + 1, i, n);
    this.kind.copyWithin(i + 1, i, n);
    this.ease.copyWithin(i + 1, i, n);
    this.active.copyWithin(i + 1, i, n);
    this.retired.copyWithin(i + 1, i, n);
    this.start.copyWithin(i + 1, i, n);
    this.duration.copyWithin(i + 1, i, n);
    this.target.copyWithin(i + 1, i, n);
    this.from.copyWithin(i + 1, i, n);
  }

  /** Drops retired events, keeping the order of the rest. */
  private compact(): void {
    let w = 0;
    for (let r = 0; r < this.count; r++) {
      if (this.retired[r] === 1) continue;
      if (w !== r) {
        this.track[w] = this.track[r];
        this.kind[w] = this.kind[r];
        this.ease[w] = this.ease[r];
        this.active[w] = this.active[r];
        this.retired[w] = 0;
        this.start[w] = this.start[r];
        this.duration[w] = this.duration[r];
        this.target[w] = this.target[r];
        this.from[w] = this.from[r];
      }
      w++;
    }
    this.count = w;
  }
}
