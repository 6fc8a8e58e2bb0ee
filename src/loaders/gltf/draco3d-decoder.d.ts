/** draco3d's Emscripten decoder factory (CommonJS `module.exports = DracoDecoderModule`), imported on its own. */
declare module 'draco3d/draco_decoder_nodejs.js' {
  import type { DecoderModule } from 'draco3d';
  const factory: (props?: Record<string, unknown>) => Promise<DecoderModule>;
  export default factory;
}
