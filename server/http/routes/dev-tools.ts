/** Developer tools: users, configuration sources, API keys (spec delivery section 7, dev-tools calls). */
import { z } from 'zod';
import { envName } from '../../config.js';
import { issueToken } from '../../services/auth/tokens.js';
import { sessionUser } from '../../services/auth/session.js';
import { getServices, setServices } from '../../services/settings/services.js';
import { listUsers } from '../../services/users/users.js';
import { NotFoundError } from '../../errors.js';
import { defineRoute } from '../route.js';

const TEN_YEARS_MS = 10 * 365 * 24 * 3_600_000;

export const devToolsRoutes = [
  defineRoute({
    method: 'GET', path: '/dev-tools/services', group: 'devTools', tag: 'dev-tools',
    summary: 'Background services and whether each is on: {pipeline, sweeper}',
    handler: ({ ctx }) => getServices(ctx),
  }),
  defineRoute({
    method: 'POST', path: '/dev-tools/services', group: 'devTools', tag: 'dev-tools',
    summary: "Switch services on or off: {services: {pipeline: 'off'}}",
    body: z.object({ services: z.record(z.string(), z.string()) }),
    handler: ({ ctx, body }) => setServices(ctx, body.services),
  }),
  defineRoute({
    method: 'GET', path: '/dev-tools/users', group: 'devTools', tag: 'dev-tools',
    summary: 'Every user with role and original role',
    handler: ({ ctx }) => listUsers(ctx).map(sessionUser),
  }),
  defineRoute({
    method: 'GET', path: '/dev-tools/config', group: 'devTools', tag: 'dev-tools',
    summary: 'The effective configuration (setting, value, environment variable name)',
    handler: ({ ctx }) => Object.entries(ctx.config).map(([key, value]) => ({ key, value, env: envName(key) })),
  }),
  defineRoute({
    method: 'GET', path: '/dev-tools/user/key/:userId', group: 'devToolsLocal', tag: 'dev-tools',
    summary: "A long-lived API key (10 years) for a user; with '/10h' an impersonation token of 10 hours",
    handler: ({ ctx, params }) => {
      const user = listUsers(ctx).find((u) => u.id === Number(params.userId));
      if (!user) throw new NotFoundError(`No user with id: ${params.userId}`);
      return issueToken(ctx, user.id, 'api', TEN_YEARS_MS, 'generated key');
    },
  }),
  defineRoute({
    method: 'GET', path: '/dev-tools/user/key/:userId/:expiry', group: 'devToolsLocal', tag: 'dev-tools',
    summary: 'An impersonation session token of 10 hours for a user',
    query: z.object({}).optional(),
    handler: ({ ctx, params }) => {
      const user = listUsers(ctx).find((u) => u.id === Number(params.userId));
      if (!user) throw new NotFoundError(`No user with id: ${params.userId}`);
      return issueToken(ctx, user.id, 'session', 10 * 3_600_000, 'impersonation');
    },
  }),
];
