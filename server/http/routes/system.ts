/** Health and reference data. */
import { appVersion } from '../../paths.js';
import { getNrd } from '../../services/reference-data/reference-data.js';
import { defineRoute } from '../route.js';

export const systemRoutes = [
  defineRoute({
    method: 'GET',
    path: '/health',
    base: 'api',
    group: 'public',
    tag: 'system',
    summary: 'Application version and database schema version',
    handler: ({ ctx }) => ({ status: 'ok', version: appVersion(), schemaVersion: ctx.schemaVersion }),
  }),
  defineRoute({
    method: 'GET',
    path: '/nrd',
    group: 'session',
    tag: 'reference-data',
    summary: 'Reference data lists, each entry {code, alt_code, deprecated}; deprecated entries omitted',
    handler: ({ ctx }) => getNrd(ctx),
  }),
];
