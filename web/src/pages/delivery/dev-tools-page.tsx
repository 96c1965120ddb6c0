/**
 * Settings (/dev-tools, only with dev tools enabled; delivery spec "Developer tools"): three tabs,
 * Options (settings and the input/output model), Developer tools (dev info, users, database
 * actions, the dates the independent FX rates cover, and in a local environment a user token and
 * impersonation), Developer logs (log files,
 * a tail viewer and the security audit log).
 */
import { ConfirmDialog } from 'primereact/confirmdialog';
import { TabPanel, TabView } from 'primereact/tabview';
import { useSnapshot } from 'valtio';
import type { SessionConfig } from '../../api/types';
import { usePageTitle } from '../../components/use-page-title';
import { session } from '../../state/session';
import { AuditLogPanel } from './dev-tools/audit-log-panel';
import { DatabaseActions } from './dev-tools/database-actions';
import { DevInfo } from './dev-tools/dev-info';
import { FxRatesPanel } from './dev-tools/fx-rates-panel';
import { LogsTab } from './dev-tools/logs-tab';
import { OptionsTab } from './dev-tools/options-tab';
import { UsersPanel } from './dev-tools/users-panel';
import './delivery.css';
import './dev-tools.css';

/** The Settings page. */
export function DevToolsPage() {
  usePageTitle('Settings');
  const { config } = useSnapshot(session);
  if (!config) return null;
  const local = Boolean(config.devTools?.isLocalEnvironment);
  return (
    <section className="fa-page fa-dev-page" aria-labelledby="fa-dev-title">
      <div className="fa-page-head">
        <h1 id="fa-dev-title">Settings</h1>
        <span className="fa-empty-text">
          {local ? 'Local environment' : 'Not a local environment: database actions, user tokens and impersonation are off'}
        </span>
      </div>
      <TabView>
        <TabPanel header="Options">
          <OptionsTab />
        </TabPanel>
        <TabPanel header="Developer tools">
          <div className="fa-card-grid">
            <DevInfo config={config as SessionConfig} />
            <UsersPanel local={local} impersonate={Boolean(config.impersonateEnabled)} />
            <DatabaseActions local={local} />
            <FxRatesPanel />
          </div>
        </TabPanel>
        <TabPanel header="Developer logs">
          <LogsTab />
          <AuditLogPanel />
        </TabPanel>
      </TabView>
      <ConfirmDialog />
    </section>
  );
}
