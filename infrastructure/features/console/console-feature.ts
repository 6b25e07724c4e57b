import type { FeatureModule } from '../../composition/feature-module.js';
import { consoleRoutes } from './console-routes.js';

/** The web console's static files. */
export const consoleFeature = {
  name: 'console',
  api: () => ({ publicRouters: [consoleRoutes()] }),
} satisfies FeatureModule;
