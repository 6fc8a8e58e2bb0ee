/**
 * The template-agnostic tree a .x file reads into, the same for every encoding (text, binary,
 * MSZIP-compressed text or binary). `read-x.ts` produces it from bytes; `x-scene.ts` gives it meaning.
 *
 * A data object keeps its own data as two ordered streams, numbers and strings, with separators
 * (`;` `,`) and list framing already removed. The reader knows no template layouts: the scene layer
 * consumes the numbers in template order and checks every count against what is left before it
 * allocates. Template declarations are skipped by the reader and never appear here.
 *
 * Positions point into the decoded stream: for text, `line` is 1-based and `offset` is the byte offset;
 * for binary, `line` is 0 and `offset` is the byte offset; for compressed files both refer to the
 * decompressed stream (the header's 16 bytes included, so offsets match a decompressed copy of the file).
 */

export type XFormat = 'x-text' | 'x-binary' | 'x-tzip' | 'x-bzip';

/** Where something is in the file, for error messages. */
export interface XPosition {
  /** 1-based line in text encodings, 0 in binary ones. */
  readonly line: number;
  /** Byte offset in the (decompressed) stream. */
  readonly offset: number;
}

/** A data object: `Template [name] [<guid>] { data... children... }`. */
export interface XObject extends XPosition {
  readonly kind: 'object';
  /** Template identifier as written (`Mesh`, `Frame`, `AnimationKey`, or a user template). */
  readonly template: string;
  /** Object name, '' when anonymous. */
  readonly name: string;
  /** Every number of the object's own data, in file order; integers and floats alike (64-bit floats). */
  readonly numbers: Float64Array;
  /** Every string of the object's own data, in file order (quotes removed). */
  readonly strings: readonly string[];
  /** Nested data objects and references, in file order. */
  readonly children: readonly XChild[];
}

/** A reference to a named object: `{ name }` or `{ name <guid> }` (the guid is dropped). */
export interface XReference extends XPosition {
  readonly kind: 'ref';
  readonly name: string;
}

export type XChild = XObject | XReference;

export interface XFile {
  readonly format: XFormat;
  /** Version from the header, e.g. '0302' or '0303'. */
  readonly version: string;
  /** 32 or 64: the width of floats in binary encodings (also reported for text files). */
  readonly floatBits: 32 | 64;
  /** Top-level data objects in file order. */
  readonly objects: readonly XObject[];
  /** Things the reader skipped or repaired, in words a user understands. */
  readonly warnings: readonly string[];
}
