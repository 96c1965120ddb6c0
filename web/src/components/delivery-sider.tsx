/** Collapsible delivery sider (width 175, collapsed 45) with the entries the config enables. */
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { leaveThen, navigate, navigation } from '../state/navigation';
import { session } from '../state/session';
import { canSwitchToAuditor, siderEntries } from '../state/view';
import { RoleSwitchLink } from './role-switch-link';

export const SIDER_WIDTH = 175;
export const SIDER_COLLAPSED_WIDTH = 45;

function isActive(to: string, location: string): boolean {
  if (to === '/') return location === '/' || location === '/funds/list' || location.startsWith('/fund/');
  return location === to || location.startsWith(`${to}/`);
}

export function DeliverySider() {
  const { siderCollapsed } = useSnapshot(navigation);
  const { config, user } = useSnapshot(session);
  const [location] = useLocation();
  if (!config) return null;
  const entries = siderEntries(config, user?.role);
  return (
    <nav
      className={`fa-sider${siderCollapsed ? ' fa-sider-collapsed' : ''}`}
      style={{ width: siderCollapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH }}
      aria-label="Delivery navigation"
      data-testid="delivery-sider"
    >
      <button
        type="button"
        className="fa-sider-toggle"
        aria-expanded={!siderCollapsed}
        aria-label={siderCollapsed ? 'Expand navigation' : 'Collapse navigation'}
        onClick={() => (navigation.siderCollapsed = !siderCollapsed)}
      >
        <i className={siderCollapsed ? 'pi pi-angle-double-right' : 'pi pi-angle-double-left'} aria-hidden="true" />
      </button>
      <ul>
        {entries.map((e) => {
          const active = isActive(e.to, location);
          return (
            <li key={e.to}>
              <Link
                href={e.to}
                className={`fa-sider-link${active ? ' fa-active' : ''}`}
                aria-current={active ? 'page' : undefined}
                aria-label={siderCollapsed ? e.label : undefined}
                title={siderCollapsed ? e.label : undefined}
                onClick={(ev) => {
                  // a page with unsaved changes asks first, then navigates itself
                  ev.preventDefault();
                  leaveThen(() => navigate(e.to));
                }}
              >
                <i className={e.icon} aria-hidden="true" />
                {!siderCollapsed && <span>{e.label}</span>}
              </Link>
            </li>
          );
        })}
        {canSwitchToAuditor(config) && (
          <li>
            <RoleSwitchLink view="auditor" label="Switch to auditor" icon="pi pi-sync" compact={siderCollapsed} />
          </li>
        )}
      </ul>
    </nav>
  );
}
