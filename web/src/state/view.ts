/** Pure view derivations from the session: sider entries, auditor tabs, switch link, feature list. */
import type { SessionConfig, SessionUser } from '../api/types';
import { roleMayUse } from '../../../rules/access';
import { gates, matchProtectedRoute } from '../route-table';

/** A navigation entry. */
export interface NavEntry {
  label: string;
  to: string;
  icon: string;
}

/** Delivery sider entries enabled by the config for the user's role (spec section 2.2), without the switch link. */
export function siderEntries(config: SessionConfig, role: string | null | undefined): NavEntry[] {
  const all: Array<NavEntry & { show: boolean }> = [
    { label: 'Dashboard', to: '/', icon: 'pi pi-th-large', show: true },
    { label: 'Bulk upload', to: '/funds/upload', icon: 'pi pi-upload', show: true },
    { label: 'Settings', to: '/dev-tools', icon: 'pi pi-cog', show: gates.devTools(config) },
    { label: 'Key generator', to: '/api-key-generator', icon: 'pi pi-key', show: gates.keyGenerator(config) },
    { label: 'Input Files', to: '/file-list', icon: 'pi pi-file', show: true },
    { label: 'Test Runner', to: '/test-runner', icon: 'pi pi-play', show: gates.testRunner(config, role) },
    { label: 'Import files', to: '/import', icon: 'pi pi-download', show: true },
    { label: 'Export files', to: '/export', icon: 'pi pi-external-link', show: true },
    { label: 'PowerBI Inputs', to: '/pbi-inputs', icon: 'pi pi-chart-bar', show: gates.pbiInputs(config) },
    { label: 'Live mappings', to: '/mappings', icon: 'pi pi-sitemap', show: gates.mappings(config) },
    { label: 'Contacts', to: '/contacts', icon: 'pi pi-users', show: true },
    { label: 'Scorecards', to: '/scorecards', icon: 'pi pi-chart-line', show: true },
  ];
  return all.filter((e) => e.show).map(({ label, to, icon }) => ({ label, to, icon }));
}

/** Auditor navigation tabs. */
export const AUDITOR_TABS: readonly NavEntry[] = [
  { label: 'Home', to: '/', icon: 'pi pi-home' },
  { label: 'Data Platform', to: '/data-platform', icon: 'pi pi-database' },
  { label: 'WAM Tools', to: '/tools', icon: 'pi pi-wrench' },
  { label: 'WAM Wiki', to: '/wiki', icon: 'pi pi-book' },
  { label: 'Scorecards', to: '/scorecards', icon: 'pi pi-chart-line' },
];

/** The chased user's tab: a Client (or TPA) user's open chases, where the chase mails link to. */
export const CHASES_TAB: NavEntry = { label: 'Open chases', to: '/chases', icon: 'pi pi-inbox' };

/**
 * The auditor tabs a role can open: the pages whose calls the role may make (a Client: Home, WAM
 * Wiki and Scorecards, their own client's), and for a Client also 'Open chases'.
 */
export function auditorTabs(role: string | null | undefined): NavEntry[] {
  const tabs = AUDITOR_TABS.filter((t) => {
    const match = matchProtectedRoute(t.to);
    return !match?.route.group || roleMayUse(match.route.group, role);
  });
  return role === 'Client' ? [...tabs, CHASES_TAB] : tabs;
}

/**
 * 'Switch to delivery team' is offered only to Admin and delivery team member originals (hidden
 * for Root and Auditor originals, and for Clients, whom the server refuses), and never in demo mode.
 */
export function canSwitchToDelivery(user: Pick<SessionUser, 'originalRole'>, config: Pick<SessionConfig, 'demo'>): boolean {
  return (user.originalRole === 'Admin' || user.originalRole === 'DeliveryTeamMember') && !config.demo;
}

/** 'Switch to auditor' is hidden in demo mode (the spec's demo mode hides the switch; the server refuses it). */
export function canSwitchToAuditor(config: Pick<SessionConfig, 'demo'>): boolean {
  return !config.demo;
}

/** One line of the connection indicator's hover list. */
export interface FeatureLine {
  label: string;
  value: string;
}

const onOff = (v: unknown) => (v ? 'enabled' : 'disabled');

/** The hover list: mode, feature flags as enabled/disabled, optional Delete Lux Data, then service versions. */
export function featureLines(config: SessionConfig): FeatureLine[] {
  const lines: FeatureLine[] = [
    { label: 'Mode', value: String(config.mode ?? 'unknown') },
    { label: 'DevTools', value: onOff(config.devTools?.enabled) },
    { label: 'Live mappings', value: onOff(config.mappings) },
    { label: 'Test runner', value: onOff(config.testRunner) },
    { label: 'Demo', value: onOff(config.demo) },
    { label: 'Aggregation', value: onOff(config.aggregation) },
    { label: 'Self-Onboarding', value: onOff(config.sdmUpload) },
    { label: 'Custom Mapping', value: onOff(config.customMappings) },
  ];
  if (config.deleteLuxData !== undefined) lines.push({ label: 'Delete Lux Data', value: onOff(config.deleteLuxData) });
  for (const dep of config.dependencies ?? []) lines.push({ label: dep.name, value: String(dep.version) });
  return lines;
}
