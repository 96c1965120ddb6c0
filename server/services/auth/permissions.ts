/**
 * Who may call what (spec section 6 of both documents; DOMAIN.md section 6). Every API route
 * belongs to one group (the groups' roles are a rule the browser shares: rules/access.ts); the
 * HTTP layer checks the group before calling a service, so nothing is only hidden in the UI.
 */
import type { AppConfig } from '../../config.js';
import type { Role } from '../../db/schema/index.js';
import { GROUP_ROLES, type RouteGroup } from '../../../rules/access.js';

export { GROUP_ROLES, type RouteGroup } from '../../../rules/access.js';

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
