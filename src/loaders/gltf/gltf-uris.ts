/**
 * The files a glTF's JSON names beside itself. Imports nothing: the parse worker's entry asks for
 * them before its parsers have loaded (app/early-gltf.ts), as model-resources.ts asks for them with the parse.
 */

/** The buffers' and images' URIs that name files (not data: URIs), as written, each once. */
export function externalUris(json: Readonly<Record<string, unknown>>): { buffers: string[]; images: string[] } {
  const pick = (list: unknown): string[] => {
    const out = new Set<string>();
    if (Array.isArray(list)) {
      for (const item of list) {
        const uri = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['uri'] : undefined;
        if (typeof uri === 'string' && uri.length > 0 && uri.slice(0, 5).toLowerCase() !== 'data:') out.add(uri);
      }
    }
    return [...out];
  };
  return { buffers: pick(json['buffers']), images: pick(json['images']) };
}
