import { readFileSync } from 'node:fs';
import type { Manifest } from '../app/record-plan.ts';
import type { Rules } from './compare-rules.ts';
import type { CompareResult, PairResult } from './compare-types.ts';

/**
 * The HTML report of `compare`: one self-contained file (styles inline, every image a data: URI), a
 * summary of both recordings and of the rules, then one row per pair in the result's order (worst first):
 * the rule it breaks, its figures, baseline / new / diff side by side and the enlarged crop of its worst
 * window.
 */

export interface ReportOptions {
  /** The folders of each side as given (several: the shards of one recording). */
  baselineDir: string;
  currentDir: string;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function dataUri(file: string | null): string | null {
  if (!file) return null;
  try {
    return `data:image/png;base64,${readFileSync(file).toString('base64')}`;
  } catch {
    return null;
  }
}

function figure(caption: string, file: string | null, empty: string, cls = ''): string {
  const uri = dataUri(file);
  const body = uri ? `<img src="${uri}" alt="${esc(caption)}">` : `<div class="none">${esc(empty)}</div>`;
  return `<figure${cls ? ` class="${cls}"` : ''}>${body}<figcaption>${esc(caption)}</figcaption></figure>`;
}

const BADGE: Record<PairResult['status'], string> = { pass: 'pass', fail: 'FAIL', missing: 'MISSING', added: 'ADDED', skipped: 'skipped' };

const RULE: Record<PairResult['failedRules'][number], string> = {
  coverage: 'coverage rule: too many of the model\'s pixels differ',
  region: 'region rule: too many differing pixels in one place',
  size: 'the images have different sizes',
};

function row(p: PairResult, rules: Rules): string {
  const pct = p.mismatch === null ? '' : `<span class="pct">${(p.mismatch * 100).toFixed(2)} % of the model</span>`;
  const px = p.pixels === null ? '' : `<span class="px">${p.pixels.toLocaleString('en')} px of ${(p.coverage ?? 0).toLocaleString('en')} covered${p.coverageSource === 'estimated' ? ' (estimated)' : ''}</span>`;
  const region = p.worst === null ? '' : `<span class="px">worst ${p.worst.width}×${p.worst.height}: ${p.worst.pixels} px at ${p.worst.x},${p.worst.y}</span>`;
  const broken = p.failedRules.map((r) => `<div class="rule">${esc(RULE[r])}${r === 'coverage' ? ` (> ${(rules.threshold * 100).toFixed(2)} %)` : r === 'region' ? ` (> ${rules.regionPixels} px in ${rules.region}×${rules.region})` : ''}</div>`).join('');
  const note = p.note ? `<div class="note">${esc(p.note)}</div>` : '';
  const file = (p.baseline ?? p.current)!.file;
  const images =
    p.status === 'skipped'
      ? ''
      : `<div class="images">${figure('baseline', p.baselinePng, 'no baseline image')}${figure('new', p.currentPng, 'no new image')}${figure('diff', p.diffPng, 'no diff')}</div>`;
  const crop = p.cropPng ? figure('worst window (outlined) enlarged: baseline | new | diff', p.cropPng, 'no crop', 'crop') : '';
  return `<section class="pair ${p.status}">
<header><span class="badge">${BADGE[p.status]}</span>${pct}${px}${region}<span class="label">${esc(p.label)}</span><code>${esc(file)}</code></header>
${broken}${note}${crop}${images}
</section>`;
}

function side(title: string, dir: string, m: Manifest): string {
  const params = Object.entries(m.params).map(([k, v]) => `${k}=${v}`).join(' ') || '—';
  const settings = Object.entries(m.settings).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ') || '—';
  return `<div><h2>${esc(title)}</h2><dl>
<dt>folder</dt><dd><code>${esc(dir)}</code></dd>
<dt>model</dt><dd>${esc(m.model)} · ${m.size.width}×${m.size.height} · ${m.shots.length} shots</dd>
<dt>params</dt><dd><code>${esc(params)}</code></dd>
<dt>settings</dt><dd><code>${esc(settings)}</code></dd>
<dt>recorded by</dt><dd>${esc(m.recorder)} · ${esc(m.app.name)} ${esc(m.app.version)}</dd>
<dt>renderer</dt><dd>${esc(m.renderer)}</dd>
</dl></div>`;
}

export function renderReport(result: CompareResult, o: ReportOptions): string {
  const count = (s: PairResult['status']): number => result.pairs.filter((p) => p.status === s).length;
  const verdict = result.failed > 0 ? `<span class="bad">${result.failed} of ${result.pairs.length} pairs fail</span>` : `<span class="good">all ${result.pairs.length} pairs pass</span>`;
  const r = result.rules;
  const byRule = (rule: 'coverage' | 'region'): number => result.pairs.filter((p) => p.failedRules.includes(rule)).length;
  const counts = (['fail', 'missing', 'added', 'pass', 'skipped'] as const)
    .filter((s) => count(s) > 0)
    .map((s) => `${count(s)} ${s}`)
    .join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>skinlab compare: ${esc(o.baselineDir)} vs ${esc(o.currentDir)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
:root { color-scheme: dark; font-family: system-ui, sans-serif; background: #15181d; color: #dde2ea; }
body { margin: 0 auto; padding: 16px 20px 40px; max-width: 1500px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 14px; margin: 0 0 6px; color: #aab3c0; }
.summary { margin: 0 0 14px; font-size: 14px; }
.good { color: #7bd88f; font-weight: 600; } .bad { color: #ff6b6b; font-weight: 600; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin-bottom: 18px; font-size: 12px; }
.sides > div { background: #1d2128; border-radius: 8px; padding: 10px 12px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
dt { color: #8a94a3; } dd { margin: 0; overflow-wrap: anywhere; }
.pair { background: #1d2128; border-radius: 8px; padding: 10px 12px; margin-bottom: 12px; border-left: 4px solid #3b4350; }
.pair.fail, .pair.missing, .pair.added { border-left-color: #ff6b6b; }
.pair.pass { border-left-color: #4c8a5a; }
.pair header { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; font-size: 13px; }
.badge { font-weight: 700; font-size: 11px; padding: 2px 7px; border-radius: 4px; background: #333a44; }
.fail .badge, .missing .badge, .added .badge { background: #8f2d35; color: #fff; }
.pass .badge { background: #2d5a38; }
.pct { font-weight: 600; font-variant-numeric: tabular-nums; } .px { color: #8a94a3; font-variant-numeric: tabular-nums; }
.label { flex: 1; } code { color: #8a94a3; font-size: 11px; }
.note { font-size: 12px; color: #f3d27a; margin-top: 6px; }
.rule { font-size: 12px; color: #ff9b9b; margin-top: 6px; font-weight: 600; }
.crop { margin-top: 8px; width: fit-content; max-width: 100%; } .crop img { width: auto; max-width: 100%; image-rendering: pixelated; }
.images { display: grid; grid-template-columns: repeat(3, 1fr); gap: 10px; margin-top: 8px; }
figure { margin: 0; } figure img { width: 100%; height: auto; display: block; border-radius: 4px; background: #000; }
figcaption { font-size: 11px; color: #8a94a3; text-align: center; margin-top: 3px; }
.images { cursor: zoom-in; } .images.big { grid-template-columns: 1fr; cursor: zoom-out; }
.none { aspect-ratio: 4 / 3; display: grid; place-items: center; border: 1px dashed #3b4350; border-radius: 4px; color: #8a94a3; font-size: 12px; }
</style></head>
<body>
<h1>skinlab visual comparison</h1>
<p class="summary">${verdict} — ${esc(counts)} · worst first · click a row's images to enlarge them</p>
<p class="summary">A pair fails when more than ${(r.threshold * 100).toFixed(2)} % of the pixels the model covers differ (<b>coverage rule</b>: ${byRule('coverage')} pairs), or when any ${r.region}×${r.region} window holds more than ${r.regionPixels} differing pixels (<b>region rule</b>: ${byRule('region')} pairs). A pixel differs beyond pixelmatch's colour tolerance ${r.pixelThreshold}; pixels it takes for anti-aliasing (yellow in the diff) never count.</p>
<div class="sides">${side('baseline', o.baselineDir, result.baseline)}${side('new', o.currentDir, result.current)}</div>
${result.pairs.map((p) => row(p, r)).join('\n')}
<script>document.addEventListener('click', (e) => e.target.closest('.images')?.classList.toggle('big'));</script>
</body></html>
`;
}
