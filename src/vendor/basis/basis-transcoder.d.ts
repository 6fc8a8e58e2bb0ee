/** Binomial's Basis Universal transcoder (Emscripten + embind glue, CommonJS `module.exports = BASIS`). */
declare module '*/basis_transcoder.cjs' {
  const factory: (props?: Record<string, unknown>) => Promise<Record<string, unknown>>;
  export default factory;
}
