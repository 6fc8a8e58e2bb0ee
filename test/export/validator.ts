/**
 * Khronos glTF-Validator (npm `gltf-validator`, which ships no TypeScript types), typed for the export
 * tests by hand here rather than by a global module declaration.
 */

export interface ValidatorMessage {
  readonly code: string;
  readonly message: string;
  readonly pointer?: string;
  /** 0 error, 1 warning, 2 info, 3 hint. */
  readonly severity: number;
}

export interface ValidatorReport {
  readonly issues: { readonly numErrors: number; readonly numWarnings: number; readonly messages: readonly ValidatorMessage[] };
}

interface ValidatorModule {
  validateBytes(data: Uint8Array, options?: { maxIssues?: number; externalResourceFunction?: (uri: string) => Promise<Uint8Array> }): Promise<ValidatorReport>;
}

const specifier = 'gltf-validator';
const loaded = (await import(/* @vite-ignore */ specifier)) as ValidatorModule & { default?: ValidatorModule };
const validator: ValidatorModule = loaded.default ?? loaded;

export function validateBytes(data: Uint8Array, options?: Parameters<ValidatorModule['validateBytes']>[1]): Promise<ValidatorReport> {
  return validator.validateBytes(data, options);
}
