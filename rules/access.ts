/**
 * Who may use which part of Fund Audit (spec section 6 of both documents; DOMAIN.md section 6):
 * the roles of each group of API calls. The server refuses a call of a group the role is not in
 * (server/services/auth/permissions.ts); the browser shows no tab, page or widget whose calls the
 * role would be refused.
 */

/** The roles of the product. */
export const ROLES = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'] as const;
export type Role = (typeof ROLES)[number];

/** Groups of API calls, from least to most guarded. */
export type RouteGroup =
  | 'public' // no token: health, redeeming a sign-in link
  | 'session' // any signed-in user: session, privacy, reference data, role switch, wiki
  | 'shared' // fund requests, exports, mappings, demo mode as both areas use them
  | 'auditor' // the auditor area's own calls (status report, auditor listing, bulk, self-onboarding)
  | 'delivery' // the delivery portal's calls
  | 'devTools' // developer pages: dev tools enabled
  | 'devToolsLocal'; // key generator, impersonation, database actions: also a local environment

const DELIVERY: Role[] = ['Root', 'Admin', 'DeliveryTeamMember'];
const AUDITOR: Role[] = ['Root', 'Admin', 'Auditor'];
const SHARED: Role[] = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor'];
const ALL: Role[] = [...ROLES];

/** Roles allowed per group (feature switches are checked separately). */
export const GROUP_ROLES: Record<Exclude<RouteGroup, 'public'>, Role[]> = {
  session: ALL,
  shared: SHARED,
  auditor: AUDITOR,
  delivery: DELIVERY,
  devTools: ['Root', 'Admin'],
  devToolsLocal: ['Root', 'Admin'],
};

/** Whether a role may make the calls of a group (any role for public calls; none for an unknown role). */
export function roleMayUse(group: RouteGroup, role: string | null | undefined): boolean {
  if (group === 'public') return true;
  return GROUP_ROLES[group].includes(role as Role);
}

/** The UI page a rate-limited sign-in goes to, saying why and when to try again (`?retryAfter=<s>&via=sso|link|login`). */
export const SIGN_IN_BLOCKED_PATH = '/sign-in-blocked';

/**
 * Whether a role may use the test runner (its page and its calls): the `testRunner` setting on,
 * and, for a delivery team member, developer tools enabled too (the runner reads suite files and
 * runs work on the server, a developer's tool); Root and Admin whenever it is on. The test-runner
 * service key is checked by its own scope instead.
 */
export function testRunnerOpenTo(role: string | null | undefined, config: { testRunner: boolean; devToolsEnabled: boolean }): boolean {
  if (!config.testRunner) return false;
  if (role === 'Root' || role === 'Admin') return true;
  return role === 'DeliveryTeamMember' && config.devToolsEnabled;
}
