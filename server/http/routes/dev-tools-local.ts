/**
 * Developer tools of a local environment only (group devToolsLocal; delivery spec section 5: dev
 * database buttons only when local; section 6: key generator also needs a local environment;
 * section 7): the database actions, the key generator's service keys, a user's API key and an
 * impersonation session. Resetting, clearing and dropping need `{confirm: true}` in the body.
 */
import { z } from 'zod';
import { clearDatabase, dropTables, forceMasterMappings, populateAdministrators, populateDatabase, resetDatabase } from '../../services/dev-tools/database.js';
import { generateServiceKey, generateUserKey, impersonate } from '../../services/dev-tools/keys.js';
import { defineRoute, withMessage } from '../route.js';
import {
  clearResultSchema,
  droppedTablesSchema,
  forcedMasterMappingsSchema,
  generatedKeySchema,
  populatedSchema,
  regionAdministratorsSchema,
  resetResultSchema,
} from '../schemas/dev-tools-local.js';

const confirmed = (what: string) => z.object({ confirm: z.literal(true, { message: `Confirm that you want to ${what}: send {confirm: true}` }) });
const KEY = '{service, userId, email, name, role, token (shown once), expiresAt, revoked}';

/** The key generator's service keys (spec: Sweeper, Canvas, Worker, Test runner). */
const serviceKeyRoutes = (['sweeper', 'canvas', 'worker', 'test-runner'] as const).map((service) =>
  defineRoute({
    method: 'GET',
    path: `/key/${service}`,
    group: 'devToolsLocal',
    tag: 'dev-tools',
    summary: `A new 10-year API key of the ${service} service user (created on first use); the service's earlier keys are revoked -> ${KEY}`,
    response: generatedKeySchema,
    handler: ({ ctx, user }) => generateServiceKey(ctx, user, service),
  }),
);

export const devToolsLocalRoutes = [
  defineRoute({
    method: 'POST',
    path: '/dev-tools/db/reset',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    body: confirmed('reset the database'),
    summary:
      'Remove the audit work, the TPAs and their master mappings, then load the demo data again {confirm: true}; 409 while processes or test runs run -> {removed: {table: rows}, populated}',
    response: resetResultSchema,
    handler: async ({ ctx, user }) => withMessage(await resetDatabase(ctx, user), 'Database reset to the demo data'),
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/db/clear',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    body: confirmed('clear the database'),
    summary:
      'Remove the audit work (fund requests and their files, imports, exports, test runs, PowerBI inputs, custom mappings, saved filters), keeping users, settings, reference data, TPAs and master mappings {confirm: true}; 409 while processes or test runs run -> {removed}',
    response: clearResultSchema,
    handler: async ({ ctx, user }) => withMessage(await clearDatabase(ctx, user), 'Database cleared'),
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/db/populate',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    summary:
      'Add the missing demo data: shipped TPAs, their master mappings and the real fund requests -> {administrators, masterMappings, fundRequests, skipped, skippedReason}',
    response: populatedSchema,
    handler: async ({ ctx, user }) => withMessage(await populateDatabase(ctx, user), 'Demo data loaded'),
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/db/populate/force-master-mappings',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    summary:
      "Replace every TPA's master mappings with the shipped ones; changed ones rerun the TPA's live funds -> {administrators: [{administrator, loaded, changed}]}",
    response: forcedMasterMappingsSchema,
    handler: async ({ ctx, user }) => withMessage(await forceMasterMappings(ctx, user), 'Master mappings reloaded'),
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/db/populate/administrators',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    body: z.object({ region: z.string().min(1, 'Choose a region') }),
    summary: 'Add the shipped TPAs of a region {region: EMEA | AMER | APAC} -> {region, administrators: [code]}',
    response: regionAdministratorsSchema,
    handler: ({ ctx, body }) => populateAdministrators(ctx, body.region),
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/tables/drop',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    body: confirmed('drop every table'),
    summary:
      'Drop every table and rebuild the empty schema with reference data, fixed filters and the administrator {confirm: true}; every token ends, the caller is created again with a new session; 409 while processes or test runs run -> {dropped, schemaVersion, token, expiresAt}',
    response: droppedTablesSchema,
    handler: async ({ ctx, user }) => withMessage(await dropTables(ctx, user), 'Tables dropped and the schema rebuilt'),
  }),
  ...serviceKeyRoutes,
  defineRoute({
    method: 'GET',
    path: '/dev-tools/user/key/system',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    summary: `A new 10-year API key of the system test user (created on first use); its earlier keys are revoked -> ${KEY}`,
    response: generatedKeySchema,
    handler: ({ ctx, user }) => generateServiceKey(ctx, user, 'system'),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/user/key/:userId',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    summary: `A long-lived API key (10 years) for a user -> ${KEY}; 404 'No user with id: {id}'`,
    response: generatedKeySchema,
    handler: ({ ctx, user, params }) => generateUserKey(ctx, user, params.userId),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/user/key/:userId/:expiry',
    group: 'devToolsLocal',
    tag: 'dev-tools',
    summary: `An impersonation session token of 10 hours for a user (expiry '10h'; needs impersonateEnabled, else 409) -> ${KEY}`,
    response: generatedKeySchema,
    handler: ({ ctx, user, params }) => impersonate(ctx, user, params.userId, params.expiry),
  }),
];
