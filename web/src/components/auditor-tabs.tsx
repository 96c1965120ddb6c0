/** Auditor navigation tabs (Home, Data Platform, WAM Tools, WAM Wiki, Scorecards: those the role can open; 'Open chases' for a Client) and the switch link when allowed. */
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { session } from '../state/session';
import { auditorTabs, canSwitchToDelivery } from '../state/view';
import { RoleSwitchLink } from './role-switch-link';

export function AuditorTabs() {
  const { user, config } = useSnapshot(session);
  const [location] = useLocation();
  if (!user || !config) return null;
  return (
    <nav className="fa-tabs" aria-label="Auditor navigation" data-testid="auditor-tabs">
      <ul>
        {auditorTabs(user.role).map((t) => {
          const active = t.to === '/' ? location === '/' : location.startsWith(t.to);
          return (
            <li key={t.to}>
              <Link href={t.to} className={`fa-tab${active ? ' fa-active' : ''}`} aria-current={active ? 'page' : undefined}>
                {t.label}
              </Link>
            </li>
          );
        })}
      </ul>
      {canSwitchToDelivery(user, config) && <RoleSwitchLink view="delivery" label="Switch to delivery team" icon="pi pi-sync" />}
    </nav>
  );
}
