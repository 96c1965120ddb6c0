/**
 * Developer tools (delivery spec "Developer tools"; section 7 dev-tools calls): services on/off,
 * users, the effective configuration and its sources, the pipeline's input/output model, and the
 * configurations and testing branches. The database actions, keys and impersonation are in
 * `dev-tools-local.ts`, the log files in `dev-logs.ts`.
 */
import { z } from 'zod';
import { sessionUser } from '../../services/auth/session.js';
import { currentBranch, updateBranch } from '../../services/dev-tools/branches.js';
import { configSourceList, effectiveConfig, iomConfig } from '../../services/dev-tools/config-info.js';
import { getServices, setServices } from '../../queue/services.js';
import { listUsers } from '../../services/users/users.js';
import { defineRoute, withMessage } from '../route.js';
import { branchInfoSchema, configSourcesSchema, effectiveConfigSchema, iomConfigSchema, serviceStatesSchema } from '../schemas/dev-tools.js';
import { sessionUserSchema } from '../schemas/session.js';

const BRANCH = '{kind, branch, behind, latestCommit: {id, message, files}, source, updateEnabled, changeEnabled}';

/** GET current and POST update of one kind of branch. */
const branchRoutes = (kind: 'configurations' | 'testing') => [
  defineRoute({
    method: 'GET',
    path: `/dev-tools/${kind}/current`,
    group: 'devTools',
    tag: 'dev-tools',
    summary: `The ${kind} branch: the installed version (self-hosted: shipped with Fund Audit, never behind) -> ${BRANCH}`,
    response: branchInfoSchema,
    handler: ({ ctx }) => currentBranch(ctx, kind),
  }),
  defineRoute({
    method: 'POST',
    path: `/dev-tools/${kind}/update`,
    group: 'devTools',
    tag: 'dev-tools',
    summary: `Update the ${kind} branch {branch}: the installed branch is up to date (needs branchUpdateEnabled); any other branch is refused with a validation error (and needs branchChangeEnabled) -> ${BRANCH}`,
    body: z.object({ branch: z.string().max(200) }),
    response: branchInfoSchema,
    handler: ({ ctx, body }) => {
      const { info, message } = updateBranch(ctx, kind, body.branch);
      return withMessage(info, message);
    },
  }),
];

export const devToolsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/dev-tools/services',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'Background services and whether each is on: {pipeline, sweeper, mail}',
    response: serviceStatesSchema,
    handler: ({ ctx }) => getServices(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/services',
    group: 'devTools',
    tag: 'dev-tools',
    summary: "Switch services on or off: {services: {pipeline: 'off'}} -> every service's state",
    body: z.object({ services: z.record(z.string(), z.string()) }),
    response: serviceStatesSchema,
    handler: ({ ctx, body }) => setServices(ctx, body.services),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/users',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'Every user with role and original role',
    response: z.array(sessionUserSchema),
    handler: async ({ ctx }) => (await listUsers(ctx)).map(sessionUser),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/config',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'The effective configuration (setting, value, environment variable name)',
    response: effectiveConfigSchema,
    handler: ({ ctx }) => effectiveConfig(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/config/sources',
    group: 'devTools',
    tag: 'dev-tools',
    summary: "Where each setting came from -> {file, precedence, settings: [{key, source: 'default' | 'config file' | 'environment' | 'command line', env}]}",
    response: configSourcesSchema,
    handler: ({ ctx }) => configSourceList(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/iomConfig',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'The input/output model of the pipeline -> {stages, inputs: [{type, columns: [{name, kind, required}]}], mappingTypes, outputs, limits}',
    response: iomConfigSchema,
    handler: ({ ctx }) => iomConfig(ctx),
  }),
  ...branchRoutes('configurations'),
  ...branchRoutes('testing'),
];
