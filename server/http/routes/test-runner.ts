/**
 * Test runner (delivery spec section 7: `GET /dev-tools/test-runner/tests`, `.../tests/{id}`,
 * `POST .../test/stop {id}`, `POST .../schedule {administratorCodes, testIds}`). Refused with 409
 * when the server's `testRunner` setting is off, and with 403 to a delivery team member while
 * developer tools are disabled (rules/access.ts `testRunnerOpenTo`; the test-runner service key
 * keeps its calls, which its scope limits to these).
 */
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { testRunnerOpenTo } from '../../../rules/access.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import type { User } from '../../services/auth/tokens.js';
import { serviceOfEmail } from '../../services/auth/service-scopes.js';
import { SERVICE_USER_DOMAIN } from '../../services/users/users.js';
import { getRun, listRuns, listSuites, scheduleRun, stopRun } from '../../services/test-runner/test-runner.js';
import { testRunListSchema, testRunSchema } from '../schemas/test-runner.js';
import { defineRoute } from '../route.js';

const RUN =
  '{id, userAuthId, user, administratorCodes, testIds, status, created_at, updated_at, hasErrors, results: {stats: {startedAt, finishedAt, totalTime}, reports: {<code>: {tests: [{id, title, success, time, steps: [{stepId, success, payload | error: {message, traceback}}]}]}}}}';
const list = z.union([z.array(z.union([z.string(), z.number()])), z.string(), z.number()]).transform((v) => (Array.isArray(v) ? v.map(String) : String(v)));

/**
 * Refuses a call of the test runner when it is off (409) or not open to the caller's role (403).
 * @throws ConflictError | ForbiddenError
 */
function enabled(ctx: AppContext, user: Pick<User, 'role' | 'email'>): void {
  const { testRunner, devToolsEnabled } = ctx.config;
  if (!testRunner) throw new ConflictError('The test runner is disabled');
  if (serviceOfEmail(user.email, SERVICE_USER_DOMAIN) === 'test-runner') return;
  if (!testRunnerOpenTo(user.role, { testRunner, devToolsEnabled }))
    throw new ForbiddenError('The test runner is open to delivery team members only while developer tools are enabled (setting devToolsEnabled)');
}

export const testRunnerRoutes = [
  defineRoute({
    method: 'GET',
    path: '/dev-tools/test-runner/tests',
    group: 'delivery',
    tag: 'test-runner',
    summary: `Test runs newest first {offset?, limit? (50)} and the suites available -> {rows: [${RUN}], pagination, suites: [{administratorCode, administratorName, tests: [{id, title, description}]}]}`,
    query: z.object({ offset: z.coerce.number().int().min(0).optional(), limit: z.coerce.number().int().min(1).max(1000).optional() }),
    response: testRunListSchema,
    handler: async ({ ctx, user, query }) => {
      enabled(ctx, user);
      return { ...(await listRuns(ctx, query)), suites: await listSuites(ctx) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/test-runner/tests/:id',
    group: 'delivery',
    tag: 'test-runner',
    summary: `One test run with its results -> ${RUN}`,
    response: testRunSchema,
    handler: ({ ctx, user, params }) => {
      enabled(ctx, user);
      const id = Number(params.id);
      if (!Number.isInteger(id)) throw new NotFoundError(`No such test run with id: ${params.id}`);
      return getRun(ctx, id);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/test-runner/test/stop',
    group: 'delivery',
    tag: 'test-runner',
    summary: 'Stop a pending or running test run {id}: status suspended (409 when it has ended) -> the run',
    body: z.object({ id: z.coerce.number().int() }),
    response: testRunSchema,
    handler: ({ ctx, user, body }) => {
      enabled(ctx, user);
      return stopRun(ctx, body.id);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/dev-tools/test-runner/schedule',
    group: 'delivery',
    tag: 'test-runner',
    summary:
      "Schedule a run {administratorCodes: [code] | 'a,b', testIds?: [id] | '1,2' (none = all), mappings?: 'production' (default) | 'fixtures'}: runs in the background, status pending -> running -> done -> the run",
    body: z.object({ administratorCodes: list, testIds: list.nullish(), mappings: z.enum(['production', 'fixtures']).optional() }),
    response: testRunSchema,
    handler: ({ ctx, user, body }) => {
      enabled(ctx, user);
      return scheduleRun(ctx, user, body);
    },
  }),
];
