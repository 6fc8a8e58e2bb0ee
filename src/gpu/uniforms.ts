import type { ProgramInfo } from 'twgl.js';

/**
 * A program's uniform setters resolved once for one uniform object's keys, so a per-frame upload is a
 * plain loop over setter functions (twgl.setUniforms walks the object's keys on every call, which
 * leaves garbage behind). Keys the program does not use are skipped. `values` is read at apply time:
 * the caller mutates the same object (or its typed arrays) between frames.
 */
export class UniformBinding<T extends object> {
  private readonly setters: ((value: unknown) => void)[] = [];
  private readonly keys: (keyof T)[] = [];

  constructor(info: ProgramInfo, readonly values: T) {
    const setters = info.uniformSetters as Record<string, ((value: unknown) => void) | undefined>;
    for (const key of Object.keys(values) as (keyof T & string)[]) {
      const setter = setters[key];
      if (setter) {
        this.setters.push(setter);
        this.keys.push(key);
      }
    }
  }

  /** Uploads every bound uniform from `values`; the program must be in use. */
  apply(): void {
    const v = this.values;
    for (let i = 0; i < this.setters.length; i++) this.setters[i]!(v[this.keys[i]!]);
  }
}
