/**
 * Runs the real skin_pars.glsl (resolved with src/gpu/glsl-include.ts, preprocessed with a technique's
 * defines) on the CPU: enough of GLSL ES 3.0 for that chunk — #if/#elif/#else/#endif/#define, functions
 * with in/out/inout parameters, declarations, assignment (=, +=, -=, *=, /=, swizzles), return, if/else,
 * ?:, arithmetic on float/vecN/mat3/mat4 (column-major, m * v), swizzles, array indexing, the constructors
 * and dot/cross/length/normalize/abs. Anything else throws, so a shader change the evaluator cannot follow
 * fails loudly rather than being skipped. Doubles throughout (the tolerance covers float32).
 */
export type Val = number | number[] | Mat;
export class Mat {
  constructor(readonly n: number, readonly m: number[]) {}
}
type Tok = string;
type Node = (env: Env) => Val;
/** An lvalue: a variable, or a swizzle of one. */
interface Ref { get(): Val; set(v: Val): void }
type Env = Map<string, { v: Val }>;

const SW: Record<string, number> = { x: 0, y: 1, z: 2, w: 3, r: 0, g: 1, b: 2, a: 3 };
const TYPES = new Set(['void', 'float', 'int', 'uint', 'bool', 'vec2', 'vec3', 'vec4', 'uvec4', 'ivec2', 'mat3', 'mat4']);

function lex(src: string, defines: Record<string, string>): Tok[] {
  const out: Tok[] = [];
  const re = /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|(\d+\.\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|\d+(?:e[+-]?\d+)?u?|[A-Za-z_]\w*|[+\-*/=!<>]=|&&|\|\||[-+*/=<>!?:;,.(){}[\]])/gy;
  for (let m; re.lastIndex < src.length && (m = re.exec(src)); ) {
    if (m[1] === undefined) continue;
    const d = defines[m[1]];
    if (d !== undefined) out.push(...lex(d, defines));
    else out.push(m[1]);
  }
  if (re.lastIndex < src.length) throw new Error(`glsl-eval: cannot read ${JSON.stringify(src.slice(re.lastIndex, re.lastIndex + 20))}`);
  return out;
}

/** The preprocessor: conditionals and object-like #defines (values substituted by the lexer). */
function preprocess(src: string, given: Record<string, string>): { text: string; defines: Record<string, string> } {
  const defines = { ...given };
  const keep: string[] = [];
  const stack: { on: boolean; taken: boolean; outer: boolean }[] = [];
  const on = (): boolean => stack.every((s) => s.on);
  const test = (e: string): boolean => {
    const expr = e.replace(/defined\s*\(\s*(\w+)\s*\)/g, (_, n: string) => (n in defines ? '1' : '0'));
    return truthy(parseExpr(lex(expr, defines), { i: 0 }, new Map())(new Map()));
  };
  for (const line of src.split('\n')) {
    const d = /^\s*#\s*(\w+)\s*(.*)$/.exec(line);
    if (d === null) {
      if (on()) keep.push(line);
      continue;
    }
    const [, kw, rest] = d as unknown as [string, string, string];
    if (kw === 'if' || kw === 'ifdef' || kw === 'ifndef') {
      const outer = on();
      const v = outer && (kw === 'if' ? test(rest) : (rest.trim() in defines) === (kw === 'ifdef'));
      stack.push({ on: v, taken: v, outer });
    } else if (kw === 'elif') {
      const s = stack[stack.length - 1]!;
      s.on = s.outer && !s.taken && test(rest);
      s.taken ||= s.on;
    } else if (kw === 'else') {
      const s = stack[stack.length - 1]!;
      s.on = s.outer && !s.taken;
      s.taken = true;
    } else if (kw === 'endif') stack.pop();
    else if (kw === 'define' && on()) {
      const m = /^(\w+)\s*(.*)$/.exec(rest)!;
      defines[m[1]!] = m[2]!.replace(/\/\/.*$/, '').trim();
    } else if (on() && kw !== 'version') throw new Error(`glsl-eval: #${kw} not supported`);
  }
  return { text: keep.join('\n'), defines };
}

const truthy = (v: Val): boolean => (typeof v === 'number' ? v !== 0 : true);
const num = (v: Val): number => {
  if (typeof v !== 'number') throw new Error('glsl-eval: expected a scalar');
  return v;
};

function zip(a: Val, b: Val, f: (x: number, y: number) => number): Val {
  if (a instanceof Mat || b instanceof Mat) {
    const n = a instanceof Mat ? a.n : (b as Mat).n;
    const ma = a instanceof Mat ? a.m : new Array(n * n).fill(a);
    const mb = b instanceof Mat ? b.m : new Array(n * n).fill(b);
    return new Mat(n, ma.map((x, i) => f(x as number, mb[i] as number)));
  }
  if (typeof a === 'number' && typeof b === 'number') return f(a, b);
  const len = typeof a === 'number' ? (b as number[]).length : a.length;
  if (typeof a !== 'number' && typeof b !== 'number' && a.length !== b.length) throw new Error('glsl-eval: vector sizes differ');
  return Array.from({ length: len }, (_, i) => f(typeof a === 'number' ? a : a[i]!, typeof b === 'number' ? b : b[i]!));
}

function mul(a: Val, b: Val): Val {
  if (a instanceof Mat && Array.isArray(b)) {
    if (b.length !== a.n) throw new Error('glsl-eval: mat * vec size');
    return Array.from({ length: a.n }, (_, r) => b.reduce((s, x, c) => s + a.m[c * a.n + r]! * x, 0));
  }
  if (a instanceof Mat && b instanceof Mat) throw new Error('glsl-eval: mat * mat not supported');
  return zip(a, b, (x, y) => x * y);
}

function construct(type: string, args: Val[]): Val {
  if (type === 'float' || type === 'int' || type === 'uint') return type === 'float' ? num(args[0]!) : Math.trunc(num(args[0]!));
  if (type === 'mat3' || type === 'mat4') {
    const n = type === 'mat3' ? 3 : 4;
    const a0 = args[0]!;
    if (args.length === 1 && a0 instanceof Mat) {
      return new Mat(n, Array.from({ length: n * n }, (_, i) => (a0.n >= n ? a0.m[Math.floor(i / n) * a0.n + (i % n)]! : NaN)));
    }
    const flat = args.flatMap((v) => (v instanceof Mat ? v.m : v));
    if (flat.length !== n * n) throw new Error(`glsl-eval: ${type} from ${flat.length} values`);
    return new Mat(n, flat);
  }
  const size = Number(type.slice(-1));
  const flat = args.flatMap((v) => (v instanceof Mat ? v.m : v));
  if (flat.length === 1) return new Array(size).fill(flat[0]);
  if (flat.length !== size) throw new Error(`glsl-eval: ${type} from ${flat.length} values`);
  return flat;
}

const BUILTINS: Record<string, (a: Val[]) => Val> = {
  dot: ([a, b]) => (zip(a!, b!, (x, y) => x * y) as number[]).reduce((s, x) => s + x, 0),
  cross: ([a, b]) => {
    const [x, y] = [a as number[], b as number[]];
    return [x[1]! * y[2]! - x[2]! * y[1]!, x[2]! * y[0]! - x[0]! * y[2]!, x[0]! * y[1]! - x[1]! * y[0]!];
  },
  length: ([a]) => Math.hypot(...(typeof a === 'number' ? [a] : (a as number[]))),
  normalize: ([a]) => zip(a!, Math.hypot(...(a as number[])), (x, l) => x / l),
  abs: ([a]) => zip(a!, 0, (x) => Math.abs(x)),
};

interface Ex { ev: Node; ref?: (e: Env) => Ref }
type St = (e: Env) => { r: Val } | undefined;
interface Fn { params: { name: string; out: boolean }[]; body: St }
interface P { i: number }

function lookup(e: Env, name: string): { v: Val } {
  const slot = e.get(name) ?? (e.get('\0globals') as unknown as { v: Env } | undefined)?.v.get(name);
  if (slot === undefined) throw new Error(`glsl-eval: '${name}' is not defined`);
  return slot;
}

function expectTok(t: Tok[], p: P, s: string): void {
  if (t[p.i] !== s) throw new Error(`glsl-eval: expected '${s}', found '${t[p.i]}' at token ${p.i}`);
  p.i++;
}

/** Binary operators by precedence, lowest first. */
const BIN: string[][] = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/']];
const OPS: Record<string, (a: Val, b: Val) => Val> = {
  '||': (a, b) => Number(truthy(a) || truthy(b)), '&&': (a, b) => Number(truthy(a) && truthy(b)),
  '==': (a, b) => Number(num(a) === num(b)), '!=': (a, b) => Number(num(a) !== num(b)),
  '<': (a, b) => Number(num(a) < num(b)), '>': (a, b) => Number(num(a) > num(b)),
  '<=': (a, b) => Number(num(a) <= num(b)), '>=': (a, b) => Number(num(a) >= num(b)),
  '+': (a, b) => zip(a, b, (x, y) => x + y), '-': (a, b) => zip(a, b, (x, y) => x - y),
  '*': mul, '/': (a, b) => zip(a, b, (x, y) => x / y),
};

function parseExpr(t: Tok[], p: P, fns: Map<string, Fn>): Node {
  return parseTernary(t, p, fns).ev;
}

function parseTernary(t: Tok[], p: P, fns: Map<string, Fn>): Ex {
  const c = parseBinary(t, p, fns, 0);
  if (t[p.i] !== '?') return c;
  p.i++;
  const a = parseTernary(t, p, fns);
  expectTok(t, p, ':');
  const b = parseTernary(t, p, fns);
  return { ev: (e) => (truthy(c.ev(e)) ? a.ev(e) : b.ev(e)) };
}

function parseBinary(t: Tok[], p: P, fns: Map<string, Fn>, level: number): Ex {
  if (level === BIN.length) return parseUnary(t, p, fns);
  let left = parseBinary(t, p, fns, level + 1);
  while (BIN[level]!.includes(t[p.i]!)) {
    const op = OPS[t[p.i++]!]!;
    const l = left;
    const r = parseBinary(t, p, fns, level + 1);
    left = { ev: (e) => op(l.ev(e), r.ev(e)) };
  }
  return left;
}

function parseUnary(t: Tok[], p: P, fns: Map<string, Fn>): Ex {
  if (t[p.i] === '-') {
    p.i++;
    const a = parseUnary(t, p, fns);
    return { ev: (e) => zip(a.ev(e), 0, (x) => -x) };
  }
  if (t[p.i] === '!') {
    p.i++;
    const a = parseUnary(t, p, fns);
    return { ev: (e) => Number(!truthy(a.ev(e))) };
  }
  return parsePostfix(t, p, fns);
}

function parseArgs(t: Tok[], p: P, fns: Map<string, Fn>): Ex[] {
  expectTok(t, p, '(');
  const args: Ex[] = [];
  while (t[p.i] !== ')') {
    args.push(parseTernary(t, p, fns));
    if (t[p.i] === ',') p.i++;
  }
  p.i++;
  return args;
}

function parsePrimary(t: Tok[], p: P, fns: Map<string, Fn>): Ex {
  const tok = t[p.i++]!;
  if (tok === '(') {
    const x = parseTernary(t, p, fns);
    expectTok(t, p, ')');
    return x;
  }
  if (/^[\d.]/.test(tok)) {
    const v = Number(tok.replace(/u$/, ''));
    return { ev: () => v };
  }
  if (!/^[A-Za-z_]/.test(tok)) throw new Error(`glsl-eval: unexpected '${tok}'`);
  if (t[p.i] !== '(') {
    return { ev: (e) => lookup(e, tok).v, ref: (e) => { const s = lookup(e, tok); return { get: () => s.v, set: (v) => void (s.v = v) }; } };
  }
  const args = parseArgs(t, p, fns);
  if (TYPES.has(tok) || tok === 'uvec4') return { ev: (e) => construct(tok, args.map((a) => a.ev(e))) };
  const builtin = BUILTINS[tok];
  if (builtin) return { ev: (e) => builtin(args.map((a) => a.ev(e))) };
  return { ev: (e) => call(fns, tok, args, e) };
}

function parsePostfix(t: Tok[], p: P, fns: Map<string, Fn>): Ex {
  let x = parsePrimary(t, p, fns);
  for (;;) {
    if (t[p.i] === '.') {
      p.i++;
      const idx = [...t[p.i++]!].map((c) => SW[c]!);
      const base = x;
      const pick = (v: Val): Val => (idx.length === 1 ? (v as number[])[idx[0]!]! : idx.map((k) => (v as number[])[k]!));
      x = {
        ev: (e) => pick(base.ev(e)),
        ref: base.ref && ((e) => {
          const r = base.ref!(e);
          return { get: () => pick(r.get()), set: (v) => { const c = (r.get() as number[]).slice(); idx.forEach((k, j) => (c[k] = typeof v === 'number' ? v : (v as number[])[j]!)); r.set(c); } };
        }),
      };
    } else if (t[p.i] === '[') {
      p.i++;
      const i = parseTernary(t, p, fns);
      expectTok(t, p, ']');
      const base = x;
      x = { ev: (e) => (base.ev(e) as unknown as Val[])[num(i.ev(e))]! as Val };
    } else return x;
  }
}

function call(fns: Map<string, Fn>, name: string, args: Ex[], e: Env): Val {
  const f = fns.get(name);
  if (f === undefined) throw new Error(`glsl-eval: function '${name}' is not defined`);
  const local: Env = new Map([['\0globals', e.get('\0globals') ?? { v: e as unknown as Val }]]) as Env;
  const refs = f.params.map((q, k) => (q.out ? args[k]!.ref!(e) : null));
  f.params.forEach((q, k) => local.set(q.name, { v: args[k]!.ev(e) }));
  const r = f.body(local);
  f.params.forEach((q, k) => refs[k]?.set(local.get(q.name)!.v));
  return r?.r ?? 0;
}

function parseStatement(t: Tok[], p: P, fns: Map<string, Fn>): St {
  const tok = t[p.i]!;
  if (tok === '{') {
    p.i++;
    const body: St[] = [];
    while (t[p.i] !== '}') body.push(parseStatement(t, p, fns));
    p.i++;
    return (e) => { for (const s of body) { const r = s(e); if (r) return r; } return undefined; };
  }
  if (tok === 'return') {
    p.i++;
    const x = t[p.i] === ';' ? null : parseExpr(t, p, fns);
    expectTok(t, p, ';');
    return (e) => ({ r: x ? x(e) : 0 });
  }
  if (tok === 'if') {
    p.i++;
    expectTok(t, p, '(');
    const c = parseExpr(t, p, fns);
    expectTok(t, p, ')');
    const a = parseStatement(t, p, fns);
    let b: St | null = null;
    if (t[p.i] === 'else') { p.i++; b = parseStatement(t, p, fns); }
    return (e) => (truthy(c(e)) ? a(e) : b?.(e));
  }
  if (TYPES.has(tok) && /^[A-Za-z_]/.test(t[p.i + 1]!)) {
    const name = t[p.i + 1]!;
    p.i += 2;
    const init = t[p.i] === '=' ? (p.i++, parseExpr(t, p, fns)) : null;
    expectTok(t, p, ';');
    return (e) => void e.set(name, { v: init ? init(e) : 0 });
  }
  const target = parseTernary(t, p, fns);
  const op = t[p.i]!;
  if (['=', '+=', '-=', '*=', '/='].includes(op)) {
    p.i++;
    const value = parseExpr(t, p, fns);
    expectTok(t, p, ';');
    const combine = op === '=' ? null : OPS[op[0]!]!;
    return (e) => { const r = target.ref!(e); r.set(combine ? combine(r.get(), value(e)) : value(e)); return undefined; };
  }
  expectTok(t, p, ';');
  return (e) => void target.ev(e);
}

/** The functions of a GLSL chunk after preprocessing with `defines`; global declarations are skipped (their values come from `globals` at call time). */
export function compileGlsl(source: string, defines: Record<string, string | number | boolean>): (name: string, args: Val[], globals: Record<string, Val | Val[]>) => { result: Val; args: Val[] } {
  const given = Object.fromEntries(Object.entries(defines).filter(([, v]) => v !== false).map(([k, v]) => [k, v === true ? '1' : String(v)]));
  const pre = preprocess(source, given);
  const t = lex(pre.text, pre.defines);
  const fns = new Map<string, Fn>();
  const p: P = { i: 0 };
  while (p.i < t.length) {
    if (TYPES.has(t[p.i]!) && /^[A-Za-z_]/.test(t[p.i + 1]!) && t[p.i + 2] === '(') {
      const name = t[p.i + 1]!;
      p.i += 3;
      const params: Fn['params'] = [];
      while (t[p.i] !== ')') {
        const out = t[p.i] === 'out' || t[p.i] === 'inout';
        if (out || t[p.i] === 'in') p.i++;
        p.i++; // type
        params.push({ name: t[p.i++]!, out });
        if (t[p.i] === ',') p.i++;
      }
      p.i++;
      fns.set(name, { params, body: parseStatement(t, p, fns) });
      continue;
    }
    // A global declaration (in, uniform, a uniform block): skipped to its ';' (past a block's braces).
    let depth = 0;
    while (p.i < t.length && !(t[p.i] === ';' && depth === 0)) {
      if (t[p.i] === '{') depth++;
      if (t[p.i] === '}') depth--;
      p.i++;
    }
    p.i++;
  }
  return (name, args, globals) => {
    const env: Env = new Map([['\0globals', { v: new Map(Object.entries(globals).map(([k, v]) => [k, { v: v as Val }])) as unknown as Val }]]) as Env;
    const slots = args.map((v, k) => { env.set(`\0arg${k}`, { v }); return { ev: (e: Env) => lookup(e, `\0arg${k}`).v, ref: (e: Env) => { const s = e.get(`\0arg${k}`)!; return { get: () => s.v, set: (v2: Val) => void (s.v = v2) }; } } as Ex; });
    const result = call(fns, name, slots, env);
    return { result, args: args.map((_, k) => env.get(`\0arg${k}`)!.v) };
  };
}
