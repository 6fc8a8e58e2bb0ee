import { LoadError } from '../model/errors.ts';
import type { Scene } from '../model/types.ts';
import { looksLikeGltf } from './gltf/gltf-container.ts';
import { withGroupedWarnings } from './group-warnings.ts';
import { parseM3d } from './m3d/parse-m3d.ts';
import { readX } from './x/read-x.ts';
import { xToScene } from './x/x-scene.ts';
import { describeBytes, looksBinary, sniffFormat } from './sniff.ts';
import { MODEL_EXTENSIONS } from './model-formats.ts';
import { checkSize } from './load-model-async.ts';

/**
 * The .x and .m3d readers behind one call, with the messages for a file of no known format: what
 * loadModelAsync (load-model-async.ts) loads on first use for a file that is not glTF. load-model.ts is the
 * public entry point that names it beside loadModelAsync.
 */


/** .x and .m3d, synchronously (without generated tangents: loadModelAsync adds them), recognised by content first (a renamed file loads); a glTF file is refused with a pointer to loadModelAsync. */
export function loadModel(fileName: string, bytes: Uint8Array): Scene {
  checkSize(fileName, bytes);
  if (looksLikeGltf(fileName, bytes)) {
    throw new LoadError(`${fileName}: glTF files are read asynchronously: load it with loadModelAsync`);
  }
  const format = sniffFormat(bytes);
  if (format === 'x') return withGroupedWarnings(xToScene(readX(bytes, fileName), fileName));
  if (format === 'm3d') return withGroupedWarnings(parseM3d(new TextDecoder('utf-8').decode(bytes), fileName));
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic === '3DMO' || magic === '3dmo') {
    throw new LoadError(`${fileName}: not a Luna .m3d: this is a binary "Model 3D" (3DMO) file, a different format that shares the extension`, -1, 0);
  }
  const looks = describeBytes(bytes);
  if (looks === 'an HTML page') throw new LoadError(`${fileName}: this is an HTML page, not a model file`, 1);
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.x')) {
    throw new LoadError(`${fileName}: not a DirectX .x file: it does not start with the 'xof ' header (it looks like ${looks})`, -1, 0);
  }
  if (lower.endsWith('.m3d')) {
    // A Luna .m3d is text: binary bytes are refused here, so no message ever quotes them.
    if (looksBinary(bytes)) throw new LoadError(`${fileName}: not a Luna .m3d text file: it looks like ${looks}`, -1, 0);
    return withGroupedWarnings(parseM3d(new TextDecoder('utf-8').decode(bytes), fileName));
  }
  const dot = lower.lastIndexOf('.');
  const ext = dot >= 0 ? lower.slice(dot) : '(none)';
  throw new LoadError(`${fileName}: unsupported file type ${ext}; skinlab loads ${MODEL_EXTENSIONS.join(', ')} models (the file looks like ${looks})`);
}
