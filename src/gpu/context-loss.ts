/**
 * Waiting out a lost WebGL context. A context is lost (GPU reset, driver update, too many contexts, or
 * WEBGL_lose_context) at a task boundary; from then on create* returns null, shaders do not compile and
 * every object of it is gone. `webglcontextrestored` (only if the page called preventDefault on
 * `webglcontextlost`) brings back an empty context on the same object.
 */

/**
 * Resolves at once when `gl` is usable, else one task after its `webglcontextrestored` event, so every
 * listener of the event (the app rebuilding its renderer) has run before the caller creates objects.
 * Never rejects; never resolves if the context is never restored.
 */
export async function contextUsable(gl: WebGL2RenderingContext): Promise<void> {
  while (gl.isContextLost()) {
    await new Promise<void>((resolve) => {
      gl.canvas.addEventListener('webglcontextrestored', () => setTimeout(resolve, 0), { once: true });
    });
  }
}
