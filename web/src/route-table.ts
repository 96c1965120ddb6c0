/**
 * The route table of both spec documents and the pure decisions made on it: which route a path
 * matches, whether it may be shown (token, session, feature gates, role), which frame and which
 * page a role gets. No React, no browser: unit-tested in route-table.test.ts.
 */
import { roleMayUse, SIGN_IN_BLOCKED_PATH, testRunnerOpenTo, type RouteGroup } from '../../rules/access';
import type { SessionConfig } from './api/types';

/** Pages the router can render. */
export type PageKey =
  | 'auditor-home'
  | 'dashboard'
  | 'fund-details'
  | 'bulk-upload'
  | 'data-platform'
  | 'tools'
  | 'wiki'
  | 'dev-tools'
  | 'key-generator'
  | 'file-list'
  | 'test-runner'
  | 'import'
  | 'export'
  | 'pbi-inputs'
  | 'mappings'
  | 'contacts'
  | 'chases'
  | 'scorecards';

/** Header title of each page until the page sets its own. */
export const PAGE_TITLES: Record<PageKey, string> = {
  'auditor-home': 'Home',
  dashboard: 'Dashboard',
  'fund-details': 'Fund details',
  'bulk-upload': 'Bulk upload',
  'data-platform': 'Data Platform',
  tools: 'WAM Tools',
  wiki: 'WAM Wiki',
  'dev-tools': 'Settings',
  'key-generator': 'Key generator',
  'file-list': 'Input Files',
  'test-runner': 'Test Runner',
  import: 'Import files',
  export: 'Export files',
  'pbi-inputs': 'PowerBI Inputs',
  mappings: 'Live mappings',
  contacts: 'Contacts',
  chases: 'Open chases',
  scorecards: 'Scorecards',
};

/** Who a protected route is meant for. */
export type Audience = 'all' | 'delivery';

/** A protected route of the table. */
export interface ProtectedRoute {
  path: string;
  page: PageKey;
  audience: Audience;
  /** Feature gate on the session config (and the role, for the test runner); the route answers /404 when it returns false. */
  gate?: (config: SessionConfig, role?: string | null) => boolean;
  /** The group of API calls the page makes: a role that may not make them goes to / (rules/access.ts). */
  group?: RouteGroup;
}

/** Feature gates of the spec (section 6). */
export const gates = {
  devTools: (c: SessionConfig) => Boolean(c.devTools?.enabled),
  keyGenerator: (c: SessionConfig) => Boolean(c.devTools?.enabled && c.devTools?.isLocalEnvironment),
  testRunner: (c: SessionConfig, role?: string | null) =>
    testRunnerOpenTo(role, { testRunner: Boolean(c.testRunner), devToolsEnabled: Boolean(c.devTools?.enabled) }),
  pbiInputs: (c: SessionConfig) => Boolean(c.pbiInputs),
  mappings: (c: SessionConfig) => Boolean(c.mappings),
  customMappings: (c: SessionConfig) => Boolean(c.customMappings),
  sdmUpload: (c: SessionConfig) => Boolean(c.sdmUpload),
};

/** Protected routes, in match order ('/fund/create' before '/fund/:id'). */
export const PROTECTED_ROUTES: readonly ProtectedRoute[] = [
  { path: '/', page: 'dashboard', audience: 'all' },
  { path: '/funds/list', page: 'dashboard', audience: 'delivery' },
  { path: '/fund/create', page: 'fund-details', audience: 'delivery' },
  { path: '/fund/:id', page: 'fund-details', audience: 'delivery' },
  { path: '/fund', page: 'fund-details', audience: 'delivery' },
  { path: '/funds/upload', page: 'bulk-upload', audience: 'delivery' },
  { path: '/data-platform', page: 'data-platform', audience: 'all', group: 'auditor' },
  { path: '/tools', page: 'tools', audience: 'all', group: 'auditor' },
  { path: '/wiki', page: 'wiki', audience: 'all' },
  { path: '/dev-tools', page: 'dev-tools', audience: 'delivery', gate: gates.devTools },
  { path: '/api-key-generator', page: 'key-generator', audience: 'delivery', gate: gates.keyGenerator },
  { path: '/file-list', page: 'file-list', audience: 'delivery' },
  { path: '/test-runner', page: 'test-runner', audience: 'delivery', gate: gates.testRunner },
  { path: '/import', page: 'import', audience: 'delivery' },
  { path: '/export', page: 'export', audience: 'delivery' },
  { path: '/pbi-inputs', page: 'pbi-inputs', audience: 'delivery', gate: gates.pbiInputs },
  { path: '/mappings', page: 'mappings', audience: 'delivery' },
  // chasing: the delivery team's contacts and schedules; a chased Client or TPA user's open chases (the mails link here)
  { path: '/contacts', page: 'contacts', audience: 'delivery' },
  { path: '/chases', page: 'chases', audience: 'all', group: 'session' },
  // each TPA's and client's record over time, in both areas (a Client sees their own client's)
  { path: '/scorecards', page: 'scorecards', audience: 'all', group: 'session' },
];

/** Public routes: the sign-in flow and message pages (never remembered, never protected), and the page of a rate-limited sign-in. */
export const PUBLIC_PATHS = ['/login', '/authenticate', '/unauthorized', '/signup', '/404', SIGN_IN_BLOCKED_PATH] as const;

function normalise(path: string): string {
  const p = path.split(/[?#]/)[0] || '/';
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/** Whether a path is one of the sign-in or message pages (including /redeemToken/...). */
export function isPublicPath(path: string): boolean {
  const p = normalise(path);
  return (PUBLIC_PATHS as readonly string[]).includes(p) || p === '/redeemToken' || p.startsWith('/redeemToken/');
}

/** Matches a path against a pattern with `:param` segments; returns the params or null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = normalise(pattern).split('/');
  const got = normalise(path).split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (!g) return null;
      params[w.slice(1)] = decodeURIComponent(g);
    } else if (w !== g) return null;
  }
  return params;
}

/** The protected route a path matches, with its params, or null (unknown path). */
export function matchProtectedRoute(path: string): { route: ProtectedRoute; params: Record<string, string> } | null {
  for (const route of PROTECTED_ROUTES) {
    const params = matchPattern(route.path, path);
    if (params) return { route, params };
  }
  return null;
}

/** The two frames of the product. */
export type Frame = 'auditor' | 'delivery';

/** Root, Auditor and Client get the auditor frame; Admin, DeliveryTeamMember and any other role the delivery frame. */
export function frameForRole(role: string | undefined | null): Frame {
  return role === 'Root' || role === 'Auditor' || role === 'Client' ? 'auditor' : 'delivery';
}

/** The page a role sees on a route: '/' is the auditor home for the auditor frame; a DeliveryTeamMember sees the listing on the auditor pages. */
export function resolvePage(route: ProtectedRoute, role: string | undefined | null): PageKey {
  const frame = frameForRole(role);
  if (route.path === '/') return frame === 'auditor' ? 'auditor-home' : 'dashboard';
  if (role === 'DeliveryTeamMember' && (route.page === 'data-platform' || route.page === 'tools' || route.page === 'wiki')) {
    return 'dashboard';
  }
  return route.page;
}

/** What the router knows when deciding on a protected path. */
export interface AccessInput {
  path: string;
  hasToken: boolean;
  /** Sign-in negotiated and the privacy notice accepted. */
  sessionReady: boolean;
  role?: string | null;
  config?: SessionConfig | null;
}

/** Render the page, or redirect (with whether the path should be remembered for after sign-in). */
export type AccessDecision =
  | { kind: 'render'; route: ProtectedRoute; params: Record<string, string>; page: PageKey }
  | { kind: 'redirect'; to: string; remember: boolean };

/**
 * Route protection: unknown -> /404; no token -> /authenticate; token but no session -> /login;
 * feature gate off -> /404; delivery-only route in the auditor frame, or an auditor page whose
 * calls the role may not make (a Client on /data-platform) -> / (the auditor home).
 */
export function decideAccess(input: AccessInput): AccessDecision {
  const match = matchProtectedRoute(input.path);
  if (!match) return { kind: 'redirect', to: '/404', remember: false };
  if (!input.hasToken) return { kind: 'redirect', to: '/authenticate', remember: true };
  if (!input.sessionReady || !input.config) return { kind: 'redirect', to: '/login', remember: true };
  const { route, params } = match;
  if (route.gate && !route.gate(input.config, input.role)) return { kind: 'redirect', to: '/404', remember: false };
  if (frameForRole(input.role) === 'auditor' && (route.audience === 'delivery' || (route.group && !roleMayUse(route.group, input.role)))) {
    return { kind: 'redirect', to: '/', remember: false };
  }
  return { kind: 'render', route, params, page: resolvePage(route, input.role) };
}

/** Whether a path is remembered as the last visited route (protected, known routes only). */
export function shouldRememberRoute(path: string): boolean {
  return !isPublicPath(path) && matchProtectedRoute(path) !== null;
}

/** Whether the user must (re)accept the privacy notice. */
export function needsPrivacyAcceptance(accepted: string | number | null | undefined, current: string | number | null | undefined): boolean {
  return String(accepted ?? '') !== String(current ?? '');
}
