/**
 * Settings, dev info (delivery spec "Developer tools"): services on/off (`GET/POST
 * /dev-tools/services`), the configurations branch with its behind count and latest commit and the
 * testing branch (`/dev-tools/{configurations,testing}/current`, `.../update {branch}`: a refusal
 * is the server's validation error, shown by the default notification), and the ongoing processes:
 * the top 5 distinct running funds with fundCode, tpaName, createdBy, reRunBy (`GET /processes?top=5`).
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { InputSwitch } from 'primereact/inputswitch';
import { InputText } from 'primereact/inputtext';
import { fetchBranch, fetchOngoing, fetchServices, setService, updateBranch, type BranchKind, type ServiceStates } from '../../../api/dev-tools';
import type { SessionConfig } from '../../../api/types';
import { PanelState } from './panel-state';
import { useLoad } from './use-load';
import { displayDateTime } from '../../../../../rules';

/** Funds shown in dev info (spec: top 5). */
export const DEV_INFO_FUNDS = 5;
const SERVICE_LABELS: Record<string, string> = { pipeline: 'Pipeline', sweeper: 'Inbox sweeper', mail: 'Chase mail' };

function Services() {
  const state = useLoad(fetchServices);
  const [busy, setBusy] = useState<string | null>(null);
  const flip = async (name: string, on: boolean) => {
    setBusy(name);
    try {
      await setService(name, on ? 'on' : 'off');
      await state.reload();
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(null);
    }
  };
  return (
    <PanelState state={state} what="the services">
      {(services: ServiceStates) => (
        <ul className="fa-dev-services">
          {Object.entries(services).map(([name, value]) => (
            <li key={name}>
              <InputSwitch
                inputId={`fa-service-${name}`}
                checked={value === 'on'}
                disabled={busy !== null}
                onChange={(e) => void flip(name, Boolean(e.value))}
              />
              <label htmlFor={`fa-service-${name}`}>{SERVICE_LABELS[name] ?? name}</label>
              <span className={`fa-dev-state fa-dev-state-${value}`}>{value}</span>
            </li>
          ))}
        </ul>
      )}
    </PanelState>
  );
}

function Branch({ kind, config }: { kind: BranchKind; config: SessionConfig }) {
  const state = useLoad(() => fetchBranch(kind));
  const [wanted, setWanted] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = kind === 'configurations' ? 'Configurations branch' : 'Testing branch';
  const update = async (branch: string) => {
    setBusy(true);
    try {
      await updateBranch(kind, branch);
      setWanted(null);
      await state.reload();
    } catch {
      // the server's validation error was shown
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="fa-dev-branch" role="group" aria-label={title}>
      <h3>{title}</h3>
      <PanelState state={state} what={`the ${kind} branch`}>
        {(b) => {
          const value = wanted ?? b.branch;
          const changed = value.trim() !== b.branch;
          const allowed = changed ? Boolean(config.branchChangeEnabled) : Boolean(config.branchUpdateEnabled);
          return (
            <>
              <dl className="fa-dev-facts">
                <dt>Branch</dt>
                <dd data-field="branch">{b.branch}</dd>
                {kind === 'configurations' && (
                  <>
                    <dt>Behind</dt>
                    <dd data-field="behind">
                      {b.behind} commit{b.behind === 1 ? '' : 's'}
                    </dd>
                  </>
                )}
                <dt>Latest commit</dt>
                <dd data-field="latestCommit">
                  <code>{b.latestCommit.id}</code> {b.latestCommit.message} ({b.latestCommit.files} files in {b.source})
                </dd>
              </dl>
              <div className="fa-toolbar">
                <InputText
                  value={value}
                  onChange={(e) => setWanted(e.target.value)}
                  disabled={!config.branchChangeEnabled}
                  aria-label={`${title} to update to`}
                  title={config.branchChangeEnabled ? undefined : 'Changing branches is turned off (setting branchChangeEnabled)'}
                />
                <Button
                  type="button"
                  label="Update"
                  icon="pi pi-sync"
                  size="small"
                  loading={busy}
                  disabled={!allowed}
                  onClick={() => void update(value)}
                  tooltip={
                    allowed
                      ? undefined
                      : changed
                        ? 'Changing branches is turned off (setting branchChangeEnabled)'
                        : 'Updating branches is turned off (setting branchUpdateEnabled)'
                  }
                  tooltipOptions={{ showOnDisabled: true }}
                />
              </div>
            </>
          );
        }}
      </PanelState>
    </div>
  );
}

function Ongoing() {
  const state = useLoad(() => fetchOngoing(DEV_INFO_FUNDS));
  return (
    <div role="group" aria-label="Ongoing processes">
      <div className="fa-card-head">
        <h3>Ongoing processes</h3>
        <Button type="button" icon="pi pi-refresh" text rounded aria-label="Reload the ongoing processes" onClick={() => void state.reload()} />
      </div>
      <PanelState state={state} what="the ongoing processes">
        {(rows) =>
          rows.length === 0 ? (
            <p className="fa-empty-text">No running processes</p>
          ) : (
            <table className="fa-dev-table" aria-label="Ongoing processes">
              <thead>
                <tr>
                  <th>Fund code</th>
                  <th>Administrator</th>
                  <th>Stage</th>
                  <th>Status</th>
                  <th>Created by</th>
                  <th>Rerun by</th>
                  <th>Since</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.id}>
                    <td>{p.fundCode ?? ''}</td>
                    <td>{p.tpaName ?? ''}</td>
                    <td>{p.stage}</td>
                    <td>{p.status}</td>
                    <td>{p.createdBy ?? ''}</td>
                    <td>{p.reRunBy ?? ''}</td>
                    <td>{displayDateTime(p.process_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </PanelState>
    </div>
  );
}

/** Dev info: services, branches, ongoing processes. */
export function DevInfo({ config }: { config: SessionConfig }) {
  return (
    <section className="fa-card fa-card-wide" aria-labelledby="fa-dev-info">
      <h2 id="fa-dev-info">Dev info</h2>
      <h3>Services</h3>
      <Services />
      <div className="fa-dev-branches">
        <Branch kind="configurations" config={config} />
        <Branch kind="testing" config={config} />
      </div>
      <Ongoing />
    </section>
  );
}
