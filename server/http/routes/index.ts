/** Every API route definition, in mounting order. */
import type { RouteDef } from '../route.js';
import { authRoutes } from './auth.js';
import { devToolsRoutes } from './dev-tools.js';
import { systemRoutes } from './system.js';

export const allRoutes: RouteDef[] = [...systemRoutes, ...authRoutes, ...devToolsRoutes] as RouteDef[];
