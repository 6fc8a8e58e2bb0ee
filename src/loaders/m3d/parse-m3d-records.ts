import { mirrorQuat, mirrorVec3 } from '../../model/handedness.ts';
import type { Channel, Clip, Material, Track } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import type { TextScanner } from '../text/scanner.ts';

/**
 * Luna's standard .m3d records that parse-m3d.ts reads with its scanner (the format is described there):
 * a ***Materials*** block of `Key: value` lines, and one AnimationClip of the ***AnimationClips*** section
 * (per bone `#Keyframes: n` and n × `Time: t Pos: x y z Scale: x y z Quat: x y z w`), mirrored into
 * skinlab's right-handed frame. Reads only from the scanner; errors are the scanner's LoadErrors.
 */

/** A section header line such as `***Materials***`; group 1 is the section's name. */
export const SECTION = /^\*+([A-Za-z0-9-]+)\*+$/;
/** Smallest text a keyframe record can take, to refuse counts the file cannot hold before allocating. */
const MIN_CHARS_KEY = 40;

export const DEFAULT_MATERIAL: Material = {
  name: 'default',
  diffuse: [0.8, 0.8, 0.8, 1],
  specular: [0.2, 0.2, 0.2],
  specularPower: 32,
  emissive: [0, 0, 0],
  diffuseMap: null,
  normalMap: null,
};

const MATERIAL_KEYS = new Set([
  'Name:', 'Ambient:', 'Diffuse:', 'Specular:', 'SpecPower:', 'Reflectivity:', 'Fresnel0:', 'Roughness:',
  'AlphaClip:', 'Effect:', 'MaterialTypeName:', 'DiffuseMap:', 'NormalMap:',
]);

/** One material block: `Key: value` lines until a key repeats or the next section starts. */
export function readMaterial(s: TextScanner, index: number, count: number): Material {
  const fields = new Map<string, string>();
  const startLine = s.line;
  for (;;) {
    const key = s.peek();
    if (key === null) s.error(`unexpected end of file in material ${index} of ${count}`, s.line);
    if (SECTION.test(key) || fields.has(key)) break;
    if (!key.endsWith(':')) s.error(`expected a material field such as 'Diffuse:' in material ${index}, found ${quoted(key)}`);
    s.next();
    if (!MATERIAL_KEYS.has(key)) s.error(`unknown material field ${quoted(key)} in material ${index}`);
    fields.set(key, s.restOfLine());
  }
  if (fields.size === 0) s.error(`material ${index} of ${count} is missing`, startLine);
  const vec = (key: string, n: number, fallback: number[]): number[] => {
    const raw = fields.get(key);
    if (raw === undefined) return fallback;
    const parts = raw.split(/\s+/).map(Number);
    if (parts.length < n || parts.slice(0, n).some((x) => !Number.isFinite(x))) {
      s.error(`material ${index}: ${quoted(key)} needs ${n} numbers, found ${quoted(raw)}`, startLine);
    }
    return parts.slice(0, n);
  };
  const d = vec('Diffuse:', 3, [0.8, 0.8, 0.8]);
  const spec = fields.has('Specular:') ? vec('Specular:', 3, [0, 0, 0]) : vec('Fresnel0:', 3, [0.04, 0.04, 0.04]);
  let power = 32;
  if (fields.has('SpecPower:')) power = vec('SpecPower:', 1, [32])[0]!;
  else if (fields.has('Roughness:')) {
    const r = Math.min(1, Math.max(0.02, vec('Roughness:', 1, [0.5])[0]!));
    power = 2 / (r * r) - 2; // Blinn-Phong exponent with roughly the same lobe width.
  }
  const map = (key: string): string | null => {
    const v = fields.get(key);
    return v !== undefined && v.length > 0 ? v : null;
  };
  return {
    name: fields.get('Name:') ?? `material${index}`,
    diffuse: [d[0]!, d[1]!, d[2]!, 1],
    specular: [spec[0]!, spec[1]!, spec[2]!],
    specularPower: Math.max(1, power),
    emissive: [0, 0, 0],
    diffuseMap: map('DiffuseMap:'),
    normalMap: map('NormalMap:'),
  };
}

export function readClip(s: TextScanner, boneCount: number): Clip {
  s.expect('AnimationClip');
  const name = s.next('a clip name');
  s.expect('{');
  const tracks: Track[] = [];
  let duration = 0;
  for (let b = 0; b < boneCount; b++) {
    s.expect(`Bone${b}`);
    s.expect('#Keyframes:');
    const n = s.int(`keyframe count of bone ${b} in clip ${quoted(name)}`, 0, 1 << 24);
    s.checkCount(n, MIN_CHARS_KEY, `keyframe (bone ${b}, clip ${quoted(name)})`);
    s.expect('{');
    const times = new Float32Array(n);
    const tv = new Float32Array(n * 3);
    const sv = new Float32Array(n * 3);
    const rv = new Float32Array(n * 4);
    const keyTime = (): string => `key time (bone ${b}, clip ${quoted(name)})`;
    for (let k = 0; k < n; k++) {
      s.expect('Time:');
      const t = s.number(keyTime);
      times[k] = t;
      s.expect('Pos:');
      for (let i = 0; i < 3; i++) tv[k * 3 + i] = s.number('key translation');
      s.expect('Scale:');
      for (let i = 0; i < 3; i++) sv[k * 3 + i] = s.number('key scale');
      s.expect('Quat:');
      for (let i = 0; i < 4; i++) rv[k * 4 + i] = s.number('key rotation');
      const len = Math.hypot(rv[k * 4]!, rv[k * 4 + 1]!, rv[k * 4 + 2]!, rv[k * 4 + 3]!);
      // A zero-length rotation stays zero: validateScene replaces it with the identity and warns.
      if (len >= 1e-8) for (let i = 0; i < 4; i++) rv[k * 4 + i] = rv[k * 4 + i]! / len;
      mirrorVec3(tv, k * 3);
      mirrorQuat(rv, k * 4);
    }
    s.expect('}');
    if (n > 0) {
      duration = Math.max(duration, times[n - 1]!);
      const channel = (values: Float32Array): Channel => ({ times, values });
      tracks.push({ node: b, translation: channel(tv), rotation: channel(rv), scale: channel(sv) });
    }
  }
  s.expect('}');
  return { name, duration, ticksPerSecond: 0, tracks };
}
