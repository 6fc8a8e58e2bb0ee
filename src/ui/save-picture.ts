import type { App } from '../app/app.ts';
import { modelStem, slug } from '../app/record-plan.ts';
import { downloadBlob } from './download.ts';

/**
 * "Save picture" (S key, panel button): the canvas as a PNG at its drawing buffer's size, downloaded as
 * `skinlab-<model>-<clip>-t<seconds>.png`. The context keeps no drawing buffer between frames
 * (preserveDrawingBuffer: false), so the image is taken with `canvas.toBlob` in the task that drew the frame
 * (right after `app.nextFrame()` resolves), as the Recorder reads its pixels. No GL calls here.
 */

let saving = false;

/** Saves the next frame drawn; resolves with the file name, or null when no picture could be made (said in the error banner). */
export async function savePicture(app: App): Promise<string | null> {
  if (saving) return null;
  saving = true;
  try {
    await app.nextFrame();
    // Still the task that drew the frame: toBlob copies the drawing buffer now, encodes later.
    const canvas = app.canvas;
    const name = pictureName(app);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) {
      app.fail(`Save picture: the browser could not encode the ${canvas.width}×${canvas.height} canvas as PNG`);
      return null;
    }
    downloadBlob(blob, name);
    return name;
  } finally {
    saving = false;
  }
}

/** `skinlab-<model>-<clip>-t<seconds>.png`: the model's file stem, the clip, the time drawn (3 decimals); parts as the recorder names files. */
export function pictureName(app: App): string {
  const m = app.current;
  const clip = m && m.scene.clips.length > 0 ? m.scene.clips[m.player.clipIndex]?.name ?? '' : '';
  const time = m ? m.player.time : 0;
  return ['skinlab', slug(modelStem(m?.id ?? app.state.model)), ...(clip ? [slug(clip)] : []), `t${time.toFixed(3)}`].join('-') + '.png';
}
