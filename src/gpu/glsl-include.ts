/**
 * `#include <name>` resolution for the GLSL sources in glsl/. Pure string work shared by the Vite
 * plugin (vite.config.ts, which fails the build on an unresolved include) and the Node tests.
 * Each chunk is included at most once per program (later includes of the same chunk are dropped).
 */

const INCLUDE = /^[ \t]*#include[ \t]+<([A-Za-z0-9_]+)>[ \t]*$/gm;

export function resolveIncludes(
  source: string,
  lookup: (name: string) => string | undefined,
  from = 'shader',
  seen: Set<string> = new Set(),
  depth = 0,
): string {
  if (depth > 16) throw new Error(`${from}: #include nested deeper than 16 levels`);
  return source.replace(INCLUDE, (_line, name: string) => {
    if (seen.has(name)) return `// #include <${name}> (already included)`;
    const chunk = lookup(name);
    if (chunk === undefined) throw new Error(`${from}: #include <${name}> cannot be resolved (no glsl/include/${name}.glsl)`);
    seen.add(name);
    return `// begin <${name}>\n${resolveIncludes(chunk, lookup, `${name}.glsl`, seen, depth + 1)}\n// end <${name}>`;
  });
}
