import type { Orientation } from '../model/orient.ts';
import type { Scene } from '../model/types.ts';
import { framingSteps, type Framing } from './framing.ts';
import { standUpright, type UpChoice, type UpParam } from './up-axis.ts';

/**
 * The load-time work on a parsed Scene that its first frame needs and that needs neither GL nor the page:
 * standing it upright (up-axis.ts) and framing it over its clips (framing.ts) — tens of ms on a character, all
 * posing on the CPU. The parse worker runs it right after the parse (parse-worker.ts, for the page's first
 * model before the page is even built), so the page only checks that the worker prepared the scene for the same
 * load options (samePrep) and takes the result. Where no worker runs, the page runs it. (The footsteps, which
 * the first frame does not show, are found once it is on screen: loader.ts afterFirstFrame.)
 */

/** The load options the preparation depends on: the `up` key and the built-in's own orientation. */
export interface PrepInput {
  readonly up: UpParam;
  readonly orient?: Orientation;
}

/** A prepared model's facts (the Scene travels beside them, already turned upright). Plain data. */
export interface PrepFacts {
  readonly input: PrepInput;
  readonly up: UpChoice;
  readonly framing: Framing;
}

/**
 * `scene` stood upright as `input` asks, with its framing. Load time only (allocates). Its steps (upright, then
 * the framing's: the rest pose, each clip; framing.ts framingSteps) each wait for `between()` first: the parse
 * worker lets its waiting tasks run there (model-prep-worker.ts); by default they follow one another at once.
 */
export async function prepareScene(scene: Scene, input: PrepInput, between: () => Promise<void> = noWait): Promise<{ scene: Scene; facts: PrepFacts }> {
  await between();
  const upright = standUpright(scene, input.up, input.orient);
  const steps = framingSteps(upright.scene);
  let step: IteratorResult<void, Framing>;
  do {
    await between();
    step = steps.next();
  } while (!step.done);
  return { scene: upright.scene, facts: { input, up: upright.up, framing: step.value } };
}

const noWait = (): Promise<void> => Promise.resolve();

/** True when two preparations were asked with the same options (the worker's and the page's). */
export function samePrep(a: PrepInput, b: PrepInput): boolean {
  return a.up === b.up && a.orient?.up === b.orient?.up && a.orient?.forward === b.orient?.forward;
}
