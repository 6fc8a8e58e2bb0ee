/**
 * The one error type every loader throws. `message` is complete and user-facing: it names what was
 * expected and where (line for text formats, byte offset for binary ones), e.g.
 * "soldier.m3d: line 118809: expected 16 numbers after BoneOffset3, found 'Bone'".
 */
export class LoadError extends Error {
  override readonly name = 'LoadError';
  constructor(
    message: string,
    /** 1-based line for text input, or -1. */
    readonly line = -1,
    /** Byte offset for binary input, or -1. */
    readonly offset = -1,
  ) {
    super(message);
  }
}
