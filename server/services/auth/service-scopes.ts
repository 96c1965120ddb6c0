/**
 * Least privilege for the key generator's service users (delivery spec "Key generator": Sweeper,
 * Canvas, Worker, Test user, Test runner): each service's keys, and the download and socket tokens
 * asked for with them, reach only the calls that service needs, on top of its role's route groups.
 * Listed in docs/configuration.md ("Service keys").
 */
import type { RouteGroup } from './permissions.js';

/** Service names of the key generator (the `<service>@service.fund-audit.local` users). */
export type ServiceScopeName = 'sweeper' | 'canvas' | 'worker' | 'test-runner' | 'system';

const SESSION = ['POST /api/sso/login', 'GET /api/v2.0/nrd'];

/**
 * The calls (`METHOD /full/path` as the route table writes it) each service may make; 'system' (the
 * test user of automated end-to-end tests) may use every call of its role except the developer
 * tools (key generator, impersonation, database actions, settings).
 */
export const SERVICE_SCOPES: Record<Exclude<ServiceScopeName, 'system'>, readonly string[]> = {
  sweeper: [...SESSION, 'POST /api/v2.0/import/files', 'POST /api/v2.0/import/list', 'POST /api/v2.0/files/sweeper/logs/list'],
  canvas: [
    ...SESSION,
    'POST /api/v2.0/funds/listing',
    'GET /api/v2.0/fund/:id',
    'GET /api/v2.0/export/token',
    'POST /api/v2.0/export/files',
    'POST /api/v2.0/export/files/list',
    'GET /api/v2.0/export/file/:id',
  ],
  worker: [
    ...SESSION,
    'GET /api/v2.0/ws-token',
    'GET /api/v2.0/processes',
    'POST /api/v2.0/logs/processes',
    'POST /api/v2.0/fund/process/reset',
    'POST /api/v2.0/fund/process/cancel',
    'POST /api/v2.0/fund/reset',
  ],
  'test-runner': [
    ...SESSION,
    'GET /api/v2.0/dev-tools/test-runner/tests',
    'GET /api/v2.0/dev-tools/test-runner/tests/:id',
    'POST /api/v2.0/dev-tools/test-runner/test/stop',
    'POST /api/v2.0/dev-tools/test-runner/schedule',
  ],
};

/** The service of a service user's e-mail (`<service>@<domain>`), or null for any other user. */
export function serviceOfEmail(email: string, domain: string): ServiceScopeName | null {
  const [local, host] = email.split('@');
  if (host !== domain || !local) return null;
  return local === 'system' || local in SERVICE_SCOPES ? (local as ServiceScopeName) : null;
}

/**
 * Whether a service may make a call.
 * @param call `METHOD /full/path` of the matched route; `group` its route group
 * @returns null when allowed, else the reason
 */
export function serviceDenyReason(service: ServiceScopeName, call: string, group: RouteGroup): string | null {
  if (group === 'public') return null;
  if (service === 'system') return group === 'devTools' || group === 'devToolsLocal' ? 'The test user key cannot use the developer tools' : null;
  return SERVICE_SCOPES[service].includes(call) ? null : `The ${service} key cannot use this part of Fund Audit (${call})`;
}

/** Whether a service's key may open the live socket (the services that watch pipeline progress). */
export function serviceMayUseSocket(service: ServiceScopeName): boolean {
  return service === 'system' || SERVICE_SCOPES[service].includes('GET /api/v2.0/ws-token');
}
