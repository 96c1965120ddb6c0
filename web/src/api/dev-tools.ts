/**
 * Calls of the developer pages (delivery spec section 7): Settings (services, users, branches,
 * ongoing processes, database actions, configuration, log files) and the key generator. The shapes
 * are the server's own.
 */
import type { BranchInfo } from '../../../server/services/dev-tools/branches.js';
import type { configSourceList, iomConfig, SettingValue } from '../../../server/services/dev-tools/config-info.js';
import type { Populated, Removed } from '../../../server/services/dev-tools/database.js';
import type { GeneratedKey } from '../../../server/services/dev-tools/keys.js';
import type { LogFile } from '../../../server/services/dev-tools/logs.js';
import type { OngoingProcess } from '../../../server/services/dev-tools/ongoing.js';
import { api, apiUrl } from './client';
import type { SessionUser } from './types';

export type { BranchInfo, GeneratedKey, LogFile, OngoingProcess, Populated, Removed, SettingValue };
export type ConfigSources = ReturnType<typeof configSourceList>;
export type IomConfig = ReturnType<typeof iomConfig>;
export type ServiceStates = Record<string, 'on' | 'off'>;
export type BranchKind = 'configurations' | 'testing';

/** Background services and their state. */
export const fetchServices = () => api.get<ServiceStates>('/dev-tools/services');
/** Switches one service; the answer is every state. */
export const setService = (name: string, state: 'on' | 'off') => api.post<ServiceStates>('/dev-tools/services', { services: { [name]: state } });
/** Every user. */
export const fetchDevUsers = () => api.get<SessionUser[]>('/dev-tools/users');
/** The current configurations or testing branch. */
export const fetchBranch = (kind: BranchKind) => api.get<BranchInfo>(`/dev-tools/${kind}/current`);
/** Updates a branch; a refusal comes back as the server's validation error (shown by the default notification). */
export const updateBranch = (kind: BranchKind, branch: string) => api.post<BranchInfo>(`/dev-tools/${kind}/update`, { branch });
/** Dev info: the newest process of each of the first `top` funds with running work. */
export const fetchOngoing = (top: number) => api.get<OngoingProcess[]>(`/processes?top=${top}`);

/** Database actions (local environment only). */
export const DB_ACTIONS = {
  reset: '/dev-tools/db/reset',
  clear: '/dev-tools/db/clear',
  populate: '/dev-tools/db/populate',
  forceMasterMappings: '/dev-tools/db/populate/force-master-mappings',
  administrators: '/dev-tools/db/populate/administrators',
  drop: '/dev-tools/tables/drop',
} as const;
/** The page says what each action did itself, with its counts: the server's short message is not shown. */
const quiet = { suppressSuccess: true };
export const resetDb = () => api.post<{ removed: Removed; populated: Populated }>(DB_ACTIONS.reset, { confirm: true }, quiet);
export const clearDb = () => api.post<{ removed: Removed }>(DB_ACTIONS.clear, { confirm: true }, quiet);
export const populateDb = () => api.post<Populated>(DB_ACTIONS.populate, {}, quiet);
export const forceMasterMappings = () =>
  api.post<{ administrators: Array<{ administrator: string; loaded: string[]; changed: string[] }> }>(DB_ACTIONS.forceMasterMappings, {}, quiet);
export const populateAdministrators = (region: string) => api.post<{ region: string; administrators: string[] }>(DB_ACTIONS.administrators, { region }, quiet);
export const dropTables = () =>
  api.post<{ dropped: string[]; schemaVersion: number; token: string; expiresAt: string }>(DB_ACTIONS.drop, { confirm: true }, quiet);

/** A 10-year API key of a user. */
export const fetchUserKey = (userId: number | string) => api.get<GeneratedKey>(`/dev-tools/user/key/${userId}`);
/** A 10-hour impersonation session of a user. */
export const fetchImpersonation = (userId: number | string) => api.get<GeneratedKey>(`/dev-tools/user/key/${userId}/10h`);

/** The key generator's sections and their calls (spec: Sweeper, Canvas, Worker, Test user key, Test runner key). */
export const KEY_SECTIONS = [
  { title: 'Sweeper', path: '/key/sweeper' },
  { title: 'Canvas', path: '/key/canvas' },
  { title: 'Worker', path: '/key/worker' },
  { title: 'Test user key', path: '/dev-tools/user/key/system' },
  { title: 'Test runner key', path: '/key/test-runner' },
] as const;
export const generateKey = (path: string) => api.get<GeneratedKey>(path);

/** Options tab. */
export const fetchConfig = () => api.get<SettingValue[]>('/dev-tools/config');
export const fetchConfigSources = () => api.get<ConfigSources>('/dev-tools/config/sources');
export const fetchIomConfig = () => api.get<IomConfig>('/dev-tools/iomConfig');

/** Log files and tails. */
export const fetchLogFiles = () => api.post<LogFile[]>('/logs/list');
export const fetchLastLines = (file: string, count: number) =>
  api.post<{ file: string; count: number; lines: string[]; truncated: boolean; size: number }>('/logs/last-lines', { file, count });
/** The download address of a log file with a download token. */
export const logDownloadUrl = (file: string, token: string) =>
  `${apiUrl('/logs/download')}?file=${encodeURIComponent(file)}&token=${encodeURIComponent(token)}`;
