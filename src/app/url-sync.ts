import type { DeviceCaps } from '../techniques/technique.ts';
import { clampPalette } from '../techniques/index.ts';
import { findBuiltin } from './builtins.ts';
import { linkTime, roundTime } from './frame.ts';
import type { LoadedModel } from './loaded-model.ts';
import { formatCompare } from './compare-state.ts';
import { defaultState, formatCamera, formatMorph, type AppState } from './state.ts';

/**
 * Links that reproduce a view: the page's state written back into its URL (docs/api.md#url-parameters), defaults
 * omitted, so a copied link opens the same picture. `linkQuery` is the pure mapping state → query string;
 * `UrlSync` keeps `location` in step with it through history.replaceState (no history entry per change),
 * debounced: a query is written once it has stayed the same for one poll. Reads the state and the current
 * model; never writes either.
 */

const DEFAULTS = defaultState();

/** What a link is built from. */
export interface LinkSource {
  readonly state: AppState;
  readonly model: LoadedModel | null;
  readonly caps: DeviceCaps;
}

/**
 * The query string (without '?') that reproduces the state on `model` (keys: docs/api.md#url-parameters), keys
 * in a fixed order (model, detail, clip, t, …, as below), values that equal what the page would choose by itself
 * left out. A model opened from a file cannot be linked
 * (nothing can fetch it; `linkable` false): the link then keeps only what applies to any model (technique,
 * influences, view, overlays, morph path, crowd, speed) and opens the default model.
 */
export function linkQuery({ state: s, model, caps }: LinkSource): { query: string; linkable: boolean } {
  const q: [string, string][] = [];
  const put = (key: string, value: string): void => {
    q.push([key, value]);
  };
  const linkable = model === null || model.origin !== 'file';
  // A file's own words (clip, time, bone, weights, palette, camera) would mean nothing to the page the link opens.
  const own = linkable ? model : null;
  const builtin = findBuiltin(s.model);
  if (linkable && s.model !== DEFAULTS.model) put('model', s.model);
  if (linkable && builtin?.details && s.detail !== '' && s.detail !== builtin.defaultDetail) put('detail', s.detail);
  if (s.up !== DEFAULTS.up) put('up', s.up);
  if (own && s.tracks === '' && s.clip !== '' && s.clip !== own.startClip) put('clip', s.clip);
  if (own && (s.t !== null || s.paused)) put('t', String(s.t !== null ? linkTime(s.t) : roundTime(own.player.clockTime)));
  if (s.speed !== DEFAULTS.speed) put('speed', String(s.speed));
  if (s.technique !== DEFAULTS.technique) put('technique', s.technique);
  if (s.influences !== DEFAULTS.influences) put('influences', String(s.influences));
  if (own && s.palette !== clampPalette(own.scene, caps, s.influences, DEFAULTS.palette)) put('palette', String(s.palette));
  if (s.view !== DEFAULTS.view) put('view', s.view);
  if (s.compare) put('compare', formatCompare(s.compare));
  if (s.compare && s.compareSplit !== DEFAULTS.compareSplit) put('compareSplit', String(s.compareSplit));
  if (own && s.bone !== '') {
    const names = own.scene.skeleton.names;
    const fallback = own.defaultBone >= 0 ? names[own.defaultBone] ?? String(own.defaultBone) : '';
    if (s.bone !== fallback) put('bone', s.bone);
  }
  if (s.bindPose) put('bindPose', '1');
  if (s.skeleton) put('skeleton', '1');
  if (!s.grid) put('grid', '0');
  if (!s.shadows) put('shadows', '0');
  if (s.shading !== DEFAULTS.shading) put('shading', s.shading);
  const morph = linkable ? formatMorph(s.morph) : '';
  if (morph !== '') put('morph', morph);
  if (s.morphs !== DEFAULTS.morphs) put('morphs', s.morphs);
  if (!s.morphTrack) put('morphTrack', '0');
  if (s.crowd !== DEFAULTS.crowd) put('crowd', String(s.crowd));
  if (s.crowd > 1 && s.wander) put('wander', '1');
  if (s.crowdPath !== DEFAULTS.crowdPath) put('crowdPath', s.crowdPath);
  if (s.crowdLayout !== DEFAULTS.crowdLayout) put('crowdLayout', s.crowdLayout);
  if (!s.crowdTint) put('crowdTint', '0');
  if (!s.cull) put('cull', '0');
  if (s.impostors !== 'far') put('impostors', s.impostors);
  if (!s.lod) put('lod', '0');
  if (linkable && s.crowdModels.length > 0) put('crowdModels', s.crowdModels.join(','));
  if (own && s.tracks !== '') put('tracks', s.tracks);
  if (s.lookAt > 0) put('lookAt', String(Number(s.lookAt.toFixed(4))));
  if (linkable && s.camera) put('camera', formatCamera(s.camera));
  if (!s.gui) put('gui', '0');
  // Commas, colons, slashes and @ stay readable: they are legal in a query and the page's parser takes them as they are.
  const query = q.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2F/gi, '/').replace(/%40/g, '@')}`).join('&');
  return { query, linkable };
}

/** Keeps the address bar in step with the state. */
export class UrlSync {
  private pending = '';
  private written: string;

  constructor(
    private readonly source: () => LinkSource,
    private readonly location: Location,
    private readonly history: History,
  ) {
    this.written = location.search.replace(/^\?/, '');
  }

  /** The link to what is shown now (absolute URL). */
  link(): { url: string; linkable: boolean } {
    const { query, linkable } = linkQuery(this.source());
    const l = this.location;
    return { url: `${l.origin}${l.pathname}${query ? `?${query}` : ''}${l.hash}`, linkable };
  }

  /**
   * Called a few times a second (not per frame): writes the query once it has been the same for two polls
   * in a row. `ready`: a model is drawn at the requested state (nothing is written while a load is in flight).
   */
  poll(ready: boolean): void {
    if (!ready) return;
    const { query } = linkQuery(this.source());
    if (query !== this.pending) {
      this.pending = query;
      return;
    }
    if (query !== this.written) this.write(query);
  }

  /** Writes the current query now (Copy link). */
  flush(): void {
    const { query } = linkQuery(this.source());
    this.pending = query;
    if (query !== this.written) this.write(query);
  }

  private write(query: string): void {
    this.written = query;
    const l = this.location;
    this.history.replaceState(this.history.state, '', `${l.pathname}${query ? `?${query}` : ''}${l.hash}`);
  }
}
