import type { Controller, GUI } from 'lil-gui';
import type { App } from '../app/app.ts';
import { SHADINGS } from '../app/state.ts';

/**
 * The Rendering folder's "shading" menu (AppState `shading`): auto (pbr for glTF models, studio for .x/.m3d),
 * studio or pbr. It reads the state itself (listen()), so it follows links and `skinlab.set`; a choice goes
 * through `app.set` like the URL's.
 */
export function addShadingControl(folder: GUI, app: App): Controller {
  const proxy = {
    get shading(): string {
      return app.state.shading;
    },
    set shading(v: string) {
      // The menu writes here (lil-gui hands onChange the getter's value, the old one); the getter reads the state.
      if (v !== app.state.shading) void app.set({ shading: v });
    },
  };
  const ctl = folder.add(proxy, 'shading', [...SHADINGS]).name('shading').listen();
  ctl.domElement.title =
    'studio: the Blinn-Phong studio lights (base colour only); pbr: the material as authored (metallic-roughness, normal, occlusion and emissive maps, generated image-based light); auto: pbr for glTF, studio for .x/.m3d';
  return ctl;
}
