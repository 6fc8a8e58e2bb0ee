/**
 * The page's WebGL2 context attributes, shared by the entry script (src/boot.ts, which asks for the context
 * first) and main.ts (which gets the same context back): a canvas keeps the attributes of its first request.
 */
export const CONTEXT_ATTRIBUTES: WebGLContextAttributes = { antialias: true, alpha: false, powerPreference: 'high-performance' };
