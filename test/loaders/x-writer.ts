/**
 * A tiny .x writer for tests: one description of data objects → the same file in the text and the binary
 * encoding (X File Format Reference, "Text Encoding" / "Binary Encoding"), 32-bit floats, xof 0303.
 *
 * Data items keep the template's member order: `dwords` become an integer list (binary token 6), `floats`
 * a float list (token 7), `string` a string record (token 2) with its ';' terminator. Template declarations
 * are written for the skinlab morph templates only (text verbatim, binary tokenised), so the readers' skipping
 * of declarations is exercised in both encodings.
 */

export type XItem = { readonly dwords: readonly number[] } | { readonly floats: readonly number[] } | { readonly string: string };

export interface XSpec {
  readonly template: string;
  readonly name?: string;
  readonly data?: readonly XItem[];
  /** Nested objects, or `{ ref: name }` references. */
  readonly children?: readonly (XSpec | { readonly ref: string })[];
}

export const MORPH_TEMPLATES_TEXT = `template SkinlabMorphTarget {
 <203C588C-89A9-4B9F-A3B3-D75FE83ABEAD>
 STRING name;
 DWORD kind;
 DWORD nVertices;
 array DWORD vertexIndices[nVertices];
 array Vector positionDeltas[nVertices];
 array Vector normalDeltas[nVertices];
}

template SkinlabMorphTrack {
 <D880B797-60E9-469B-A579-9B2ADC38EC26>
 STRING targetName;
 DWORD nKeys;
 array TimedFloatKeys keys[nKeys];
}
`;

export function writeTextX(objects: readonly XSpec[], templates = true): Uint8Array {
  const out: string[] = ['xof 0303txt 0032\n'];
  if (templates) out.push(MORPH_TEMPLATES_TEXT, '\n');
  const write = (o: XSpec, indent: string): void => {
    out.push(`${indent}${o.template}${o.name ? ` ${o.name}` : ''} {\n`);
    for (const item of o.data ?? []) {
      if ('string' in item) out.push(`${indent} "${item.string}";\n`);
      else {
        const list = 'dwords' in item ? item.dwords : item.floats;
        // A number that is not finite is written the way the text reader accepts it (nan/inf words).
        out.push(`${indent} ${list.map((x) => (Number.isNaN(x) ? 'nan' : Number.isFinite(x) ? String(x) : x > 0 ? 'inf' : '-inf')).join(',')};\n`);
      }
    }
    for (const c of o.children ?? []) {
      if ('ref' in c) out.push(`${indent} { ${c.ref} }\n`);
      else write(c, `${indent} `);
    }
    out.push(`${indent}}\n`);
  };
  for (const o of objects) write(o, '');
  return new TextEncoder().encode(out.join(''));
}

const T_NAME = 1;
const T_STRING = 2;
const T_GUID = 5;
const T_INTEGER_LIST = 6;
const T_FLOAT_LIST = 7;
const T_OBRACE = 10;
const T_CBRACE = 11;
const T_OBRACKET = 14;
const T_CBRACKET = 15;
const T_SEMICOLON = 20;
const T_TEMPLATE = 31;
const T_DWORD = 41;
const T_LPSTR = 49;
const T_ARRAY = 52;

class Bytes {
  readonly out: number[] = [];
  u8(...v: number[]): this {
    this.out.push(...v);
    return this;
  }
  u16(v: number): this {
    return this.u8(v & 0xff, (v >>> 8) & 0xff);
  }
  u32(v: number): this {
    return this.u8(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  }
  text(s: string): this {
    return this.u8(...new TextEncoder().encode(s));
  }
  name(s: string): this {
    return this.u16(T_NAME).u32(s.length).text(s);
  }
  guid(g: string): this {
    const h = g.replace(/-/g, '');
    const part = (a: number, b: number): number => parseInt(h.slice(a, b), 16);
    this.u16(T_GUID).u32(part(0, 8));
    this.u8(part(10, 12), part(8, 10), part(14, 16), part(12, 14));
    for (let i = 16; i < 32; i += 2) this.u8(part(i, i + 2));
    return this;
  }
}

/** `template Name { <guid> members }` with members given as [type, name, size?]; type a primitive token or a template name. */
function binaryTemplate(b: Bytes, name: string, guid: string, members: readonly (readonly [number | string, string, string?])[]): void {
  b.u16(T_TEMPLATE).name(name).u16(T_OBRACE).guid(guid);
  for (const [type, member, size] of members) {
    if (size !== undefined) b.u16(T_ARRAY);
    if (typeof type === 'number') b.u16(type);
    else b.name(type);
    b.name(member);
    if (size !== undefined) b.u16(T_OBRACKET).name(size).u16(T_CBRACKET);
    b.u16(T_SEMICOLON);
  }
  b.u16(T_CBRACE);
}

export function writeBinaryX(objects: readonly XSpec[], templates = true): Uint8Array {
  const b = new Bytes().text('xof 0303bin 0032');
  if (templates) {
    binaryTemplate(b, 'SkinlabMorphTarget', '203C588C-89A9-4B9F-A3B3-D75FE83ABEAD', [
      [T_LPSTR, 'name'], [T_DWORD, 'kind'], [T_DWORD, 'nVertices'],
      [T_DWORD, 'vertexIndices', 'nVertices'], ['Vector', 'positionDeltas', 'nVertices'], ['Vector', 'normalDeltas', 'nVertices'],
    ]);
    binaryTemplate(b, 'SkinlabMorphTrack', 'D880B797-60E9-469B-A579-9B2ADC38EC26', [
      [T_LPSTR, 'targetName'], [T_DWORD, 'nKeys'], ['TimedFloatKeys', 'keys', 'nKeys'],
    ]);
  }
  const f32 = new DataView(new ArrayBuffer(4));
  const write = (o: XSpec): void => {
    b.name(o.template);
    if (o.name) b.name(o.name);
    b.u16(T_OBRACE);
    for (const item of o.data ?? []) {
      if ('string' in item) b.u16(T_STRING).u32(item.string.length).text(item.string).u16(T_SEMICOLON);
      else if ('dwords' in item) {
        b.u16(T_INTEGER_LIST).u32(item.dwords.length);
        for (const x of item.dwords) b.u32(x >>> 0);
      } else {
        b.u16(T_FLOAT_LIST).u32(item.floats.length);
        for (const x of item.floats) {
          f32.setFloat32(0, x, true);
          b.u8(f32.getUint8(0), f32.getUint8(1), f32.getUint8(2), f32.getUint8(3));
        }
      }
    }
    for (const c of o.children ?? []) {
      if ('ref' in c) b.u16(T_OBRACE).name(c.ref).u16(T_CBRACE);
      else write(c);
    }
    b.u16(T_CBRACE);
  };
  for (const o of objects) write(o);
  return new Uint8Array(b.out);
}
