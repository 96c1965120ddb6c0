/**
 * Calls of the developer pages (delivery spec section 7): Settings (services, users, branches,
 * ongoing processes, database actions, configuration, log files) and the key generator. The
 * payload types are the API contract's.
 */
import type { ApiResponse } from '../../../server/http/contract';
import { apiUrl, call } from './client';

/** A configurations or testing branch. */
export type BranchInfo = ApiResponse<'GET /api/v2.0/dev-tools/configurations/current'>;
/** A generated key or impersonation session (the raw token is shown once). */
export type GeneratedKey = ApiResponse<'GET /api/v2.0/key/sweeper'>;
/** Whether each background service is on. */
export type ServiceStates = ApiResponse<'GET /api/v2.0/dev-tools/services'>;
export type BranchKind = BranchInfo['kind'];

/** Background services and their state. */
export const fetchServices = () => call('GET /api/v2.0/dev-tools/services', {});
/** Switches one service; the answer is every state. */
export const setService = (name: string, state: 'on' | 'off') => call('POST /api/v2.0/dev-tools/services', { body: { services: { [name]: state } } });
/** Every user. */
export const fetchDevUsers = () => call('GET /api/v2.0/dev-tools/users', {});
/** The current configurations or testing branch. */
export const fetchBranch = (kind: BranchKind) => call(`GET /api/v2.0/dev-tools/${kind}/current`, {});
/** Updates a branch; a refusal comes back as the server's validation error (shown by the default notification). */
export const updateBranch = (kind: BranchKind, branch: string) => call(`POST /api/v2.0/dev-tools/${kind}/update`, { body: { branch } });
/** Dev info: the newest process of each of the first `top` funds with running work. */
export const fetchOngoing = (top: number) => call('GET /api/v2.0/processes', { query: { top } });

/** The page says what each action did itself, with its counts: the server's short message is not shown. */
const quiet = { suppressSuccess: true };
/** Database actions (local environment only). */
export const resetDb = () => call('POST /api/v2.0/dev-tools/db/reset', { body: { confirm: true } }, quiet);
export const clearDb = () => call('POST /api/v2.0/dev-tools/db/clear', { body: { confirm: true } }, quiet);
export const populateDb = () => call('POST /api/v2.0/dev-tools/db/populate', { body: {} }, quiet);
export const forceMasterMappings = () => call('POST /api/v2.0/dev-tools/db/populate/force-master-mappings', { body: {} }, quiet);
export const populateAdministrators = (region: string) => call('POST /api/v2.0/dev-tools/db/populate/administrators', { body: { region } }, quiet);
export const dropTables = () => call('POST /api/v2.0/dev-tools/tables/drop', { body: { confirm: true } }, quiet);

/** A 10-year API key of a user. */
export const fetchUserKey = (userId: number | string) => call('GET /api/v2.0/dev-tools/user/key/:userId', { params: { userId } });
/** A 10-hour impersonation session of a user. */
export const fetchImpersonation = (userId: number | string) => call('GET /api/v2.0/dev-tools/user/key/:userId/:expiry', { params: { userId, expiry: '10h' } });

/** The key generator's sections and their calls (spec: Sweeper, Canvas, Worker, Test user key, Test runner key). */
export const KEY_SECTIONS = [
  { title: 'Sweeper', path: '/key/sweeper', operation: 'GET /api/v2.0/key/sweeper' },
  { title: 'Canvas', path: '/key/canvas', operation: 'GET /api/v2.0/key/canvas' },
  { title: 'Worker', path: '/key/worker', operation: 'GET /api/v2.0/key/worker' },
  { title: 'Test user key', path: '/dev-tools/user/key/system', operation: 'GET /api/v2.0/dev-tools/user/key/system' },
  { title: 'Test runner key', path: '/key/test-runner', operation: 'GET /api/v2.0/key/test-runner' },
] as const;
/** A new key of a key generator section (the service's earlier keys are revoked). */
export const generateKey = (operation: (typeof KEY_SECTIONS)[number]['operation']): Promise<GeneratedKey> => call(operation, {});

/** Options tab. */
export const fetchConfig = () => call('GET /api/v2.0/dev-tools/config', {});
export const fetchConfigSources = () => call('GET /api/v2.0/dev-tools/config/sources', {});
export const fetchIomConfig = () => call('GET /api/v2.0/dev-tools/iomConfig', {});

/** Log files and tails. */
export const fetchLogFiles = () => call('POST /api/v2.0/logs/list', { body: {} });
export const fetchLastLines = (file: string, count: number) => call('POST /api/v2.0/logs/last-lines', { body: { file, count } });
/** The download address of a log file with a download token. */
export const logDownloadUrl = (file: string, token: string) =>
  `${apiUrl('/logs/download')}?file=${encodeURIComponent(file)}&token=${encodeURIComponent(token)}`;
