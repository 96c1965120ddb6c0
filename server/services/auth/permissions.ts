/**
 * Who may call what (spec section 6 of both documents; DOMAIN.md section 6). Every API route
 * belongs to one group; the HTTP layer checks the group before calling a service, so nothing is
 * only hidden in the UI.
 */
import type { AppConfig } from '../../config.js';
import type { Role } from '../../db/schema/index.js';

/** Route groups, from least to most guarded. */
export type RouteGroup =
  | 'public' // no token: health, redeeming a sign-in link
  | 'session' // any signed-in user: session, privacy, reference data, role switch, wiki
  | 'shared' // fund requests, exports, mappings as both areas use them
  | 'auditor' // the auditor area's own calls (status report, auditor listing, bulk, self-onboarding, demo)
  | 'delivery' // the delivery portal's calls
  | 'devTools' // developer pages: dev tools enabled
  | 'devToolsLocal'; // key generator, impersonation, database actions: also a local environment

const DELIVERY: Role[] = ['Root', 'Admin', 'DeliveryTeamMember'];
const AUDITOR: Role[] = ['Root', 'Admin', 'Auditor'];
const SHARED: Role[] = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor'];
const ALL: Role[] = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'];

/** Roles allowed per group (feature switches are checked separately). */
export const GROUP_ROLES: Record<Exclude<RouteGroup, 'public'>, Role[]> = {
  session: ALL,
  shared: SHARED,
  auditor: AUDITOR,
  delivery: DELIVERY,
  devTools: ['Root', 'Admin'],
  devToolsLocal: ['Root', 'Admin'],
};

/** Why a call is refused, or null when allowed. */
export function denyReason(group: RouteGroup, role: Role | null, config: AppConfig): string | null {
  if (group === 'public') return null;
  if (!role) return 'Sign-in required';
  if (!GROUP_ROLES[group].includes(role)) return `The ${role} role cannot use this part of Fund Audit`;
  if ((group === 'devTools' || group === 'devToolsLocal') && !config.devToolsEnabled) return 'Developer tools are disabled on this server';
  if (group === 'devToolsLocal' && !config.devToolsLocal) return 'Only available in a local environment';
  return null;
}

/** Original roles that may take the delivery view (spec: Root and Auditor originals cannot). */
export const DELIVERY_VIEW_ROLES: Role[] = ['Admin', 'DeliveryTeamMember'];

/** The frame a role sees: delivery portal or auditor area. */
export function viewOf(role: Role): 'delivery' | 'auditor' {
  return role === 'Admin' || role === 'DeliveryTeamMember' ? 'delivery' : 'auditor';
}
