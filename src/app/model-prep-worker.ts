import type { Scene } from '../model/types.ts';
import { predecodeImages } from './image-predecode.ts';
import { prepareScene, type PrepFacts, type PrepInput } from './model-prep.ts';

/**
 * model-prep.ts's preparation as the parse worker runs it: a failure there is not the parse's, so the Scene
 * goes back as parsed, without facts, and the page prepares it itself (and reports what fails, as it always did).
 * Its steps run in tasks of their own (prepareScene's `between`, nextTask): the browser reads the bytes of the images
 * the worker decodes meanwhile (image-predecode.ts) in tasks of this thread, so their decode overlaps the steps.
 */
export async function prepareInWorker(scene: Scene, prep: PrepInput | undefined): Promise<{ scene: Scene; facts?: PrepFacts }> {
  if (!prep) return { scene };
  try {
    return await prepareScene(scene, prep, nextTask);
  } catch {
    return { scene };
  }
}

/**
 * What the worker does after every parse, for the page: the file's own images start decoding (image-predecode.ts)
 * and the Scene is prepared (prepareInWorker) meanwhile. The prepared Scene comes back as soon as it is (its
 * images may still be decoding); `bitmaps` settles when they are decoded. Never rejects.
 */
export async function prepareForPage(scene: Scene, prep: PrepInput | undefined): Promise<{ scene: Scene; facts?: PrepFacts; bitmaps: Promise<Map<string, ImageBitmap>> }> {
  const bitmaps = predecodeImages(scene);
  return { ...(await prepareInWorker(scene, prep)), bitmaps };
}

/**
 * Resolves in a later task of this thread (after the tasks already waiting): a message to itself, not a timer,
 * whose nested calls the browser holds back 4 ms each after the fifth.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    waking.push(resolve);
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => waking.shift()?.();
    }
    channel.port2.postMessage(null);
  });
}

let channel: MessageChannel | null = null;
const waking: (() => void)[] = [];
