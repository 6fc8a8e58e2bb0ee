import type { Layout } from './gltf-check-buffers.ts';
import { checkFinite, checkKeyTimes, checkSparseIndices } from './gltf-check-data.ts';
import { CheckContext, isObj } from './gltf-check-util.ts';

/**
 * Checks animations: channels target existing nodes with a known path; samplers exist, use a known
 * interpolation, and have as many outputs as their keys need (LINEAR/STEP: one value per key and target,
 * CUBICSPLINE: three); key times ascend from zero or later; every value is finite.
 */

const PATH_TYPE: Readonly<Record<string, string>> = { translation: 'VEC3', rotation: 'VEC4', scale: 'VEC3', weights: 'SCALAR' };

/** Morph targets of node `n`'s mesh (0 without a mesh). */
function targetsOfNode(ctx: CheckContext, n: number): number {
  const node = (ctx.json['nodes'] as unknown[])[n];
  const meshIndex = isObj(node) ? node['mesh'] : undefined;
  if (typeof meshIndex !== 'number') return 0;
  const mesh = (ctx.json['meshes'] as unknown[])[meshIndex];
  const prims = isObj(mesh) ? mesh['primitives'] : undefined;
  const first = Array.isArray(prims) ? prims[0] : undefined;
  const targets = isObj(first) ? first['targets'] : undefined;
  return Array.isArray(targets) ? targets.length : 0;
}

export function checkAnimations(ctx: CheckContext, layout: Layout): void {
  const acc = layout.accessors;
  const nodeCount = ctx.count('nodes');
  const scanned = new Set<number>();
  const animDefs = ctx.top('animations');
  for (let i = 0; i < animDefs.length; i++) {
    const anim = animDefs[i]!;
    const ptr = `/animations/${i}`;
    const samplers = ctx.arr(anim, 'samplers', ptr) ?? [];
    const channels = ctx.arr(anim, 'channels', ptr) ?? [];
    const interp: string[] = [];
    const targeted = new Map<string, number>();
    for (let s = 0; s < samplers.length; s++) {
      const sptr = `${ptr}/samplers/${s}`;
      const sampler = samplers[s];
      if (!isObj(sampler)) ctx.fail(sptr, 'is not an object');
      const input = ctx.ref(sampler, 'input', sptr, 'accessors');
      const output = ctx.ref(sampler, 'output', sptr, 'accessors');
      if (input === undefined) ctx.fail(`${sptr}/input`, 'is missing');
      if (output === undefined) ctx.fail(`${sptr}/output`, 'is missing');
      const mode = sampler['interpolation'] ?? 'LINEAR';
      if (mode !== 'LINEAR' && mode !== 'STEP' && mode !== 'CUBICSPLINE') {
        ctx.fail(`${sptr}/interpolation`, `${JSON.stringify(mode)?.slice(0, 40)} is not LINEAR, STEP or CUBICSPLINE`);
      }
      interp.push(mode);
      if (!scanned.has(input)) {
        scanned.add(input);
        checkSparseIndices(ctx, acc, input);
        if (checkKeyTimes(ctx, acc, input, `${sptr}/input`)) layout.checked[input] = 1;
      }
      if (!scanned.has(output)) {
        scanned.add(output);
        checkSparseIndices(ctx, acc, output);
        if (checkFinite(ctx, acc, output, 'animation output')) layout.checked[output] = 1;
      }
    }
    for (let c = 0; c < channels.length; c++) {
      const cptr = `${ptr}/channels/${c}`;
      const channel = channels[c];
      if (!isObj(channel)) ctx.fail(cptr, 'is not an object');
      const s = channel['sampler'];
      ctx.index(s, `${cptr}/sampler`, 'samplers', samplers.length, 'the animation');
      const target = ctx.obj(channel, 'target', cptr);
      if (!target) ctx.fail(`${cptr}/target`, 'is missing');
      const path = target['path'];
      if (typeof path !== 'string' || PATH_TYPE[path] === undefined) {
        ctx.fail(`${cptr}/target/path`, `${JSON.stringify(path)?.slice(0, 40) ?? 'missing'} is not translation, rotation, scale or weights`);
      }
      const node = target['node'];
      if (node === undefined) continue; // an extension targets something else; nothing to animate here
      const n = ctx.index(node, `${cptr}/target/node`, 'nodes', nodeCount);
      const key = `${n}/${path}`;
      const earlier = targeted.get(key);
      if (earlier !== undefined) ctx.fail(`${cptr}/target`, `channel ${earlier} already animates the ${path} of node ${n}; one channel per target`);
      targeted.set(key, c);
      const sampler = samplers[s as number] as Record<string, number>;
      const input = acc[sampler['input']!]!;
      const output = acc[sampler['output']!]!;
      const outIndex = sampler['output']!;
      if (output.type !== PATH_TYPE[path]) {
        ctx.fail(`${ptr}/samplers/${s}/output`, `accessor ${outIndex} holds ${output.type} values; ${path} needs ${PATH_TYPE[path]}`);
      }
      const perKey = (path === 'weights' ? targetsOfNode(ctx, n) : 1) * (interp[s as number] === 'CUBICSPLINE' ? 3 : 1);
      if (path === 'weights' && perKey === 0) ctx.fail(`${cptr}/target/node`, `node ${n} has no mesh with morph targets to weigh`);
      if (output.count !== input.count * perKey) {
        ctx.fail(`${ptr}/samplers/${s}`, `${input.count} key times need ${input.count * perKey} outputs for ${path} (${interp[s as number]}), accessor ${outIndex} has ${output.count}`);
      }
    }
  }
}
