import type { Controller, GUI } from 'lil-gui';
import type { App } from '../app/app.ts';
import type { UpParam } from '../app/up-axis.ts';

/**
 * The Model folder's "up axis" menu (URL key `up`, app/up-axis.ts): auto (Z-up characters detected and turned
 * upright), y (the file as stored) or z (the file's +Z up). It shows the state's value (listen) and sets it
 * through the App, which loads the model again turned as asked.
 */
export function addUpControl(folder: GUI, app: App): Controller {
  const proxy = {
    get up(): UpParam {
      return app.state.up;
    },
    set up(v: UpParam) {
      if (v !== app.state.up) void app.set({ up: v });
    },
  };
  const ctl = folder.add(proxy, 'up', { 'auto (detect Z-up)': 'auto', 'y (as stored)': 'y', 'z (file +Z up)': 'z' }).name('up axis').listen();
  ctl.domElement.title = 'Which of the file\'s axes stands up: a Z-up file (3ds Max, Blender) lies on the floor as stored';
  return ctl;
}
