/**
 * Settings, Developer logs tab: the security audit log (sign-ins and failures, view switches, keys,
 * impersonation, user changes, mapping and fund deletions), newest first, with the hash chain's
 * check and an export as JSON lines.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { auditLogExportUrl, fetchAuditLog, verifyAuditLog } from '../../../api/audit-log';
import { fetchDownloadToken } from '../../../api/delivery-files';
import { openDownload } from '../../../api/download';
import { PanelState } from './panel-state';
import { useLoad } from './use-load';
import { displayDateTime } from '../../../../../rules';

/** The audit log card. */
export function AuditLogPanel() {
  const entries = useLoad(() => fetchAuditLog(100));
  const [check, setCheck] = useState<{ ok: boolean; entries: number; problems: string[] } | null>(null);
  const verify = async () => {
    try {
      setCheck(await verifyAuditLog());
    } catch {
      // the default error notification was shown
    }
  };
  const exportAll = async () => {
    try {
      const { token } = await fetchDownloadToken();
      openDownload(auditLogExportUrl(token));
    } catch {
      // the default error notification was shown
    }
  };
  return (
    <section className="fa-card" aria-labelledby="fa-dev-audit">
      <div className="fa-card-head">
        <h2 id="fa-dev-audit">Security audit log</h2>
        <Button type="button" icon="pi pi-refresh" text rounded aria-label="Reload the audit log" onClick={() => void entries.reload()} />
      </div>
      <div className="fa-toolbar">
        <Button type="button" icon="pi pi-verified" label="Verify" size="small" outlined onClick={() => void verify()} />
        <Button type="button" icon="pi pi-download" label="Export" size="small" outlined onClick={() => void exportAll()} />
        {check && (
          <span role="status" className={check.ok ? 'fa-audit-ok' : 'fa-audit-broken'}>
            {check.ok ? `Intact: ${check.entries} entries, every hash matches.` : `Tampered with: ${check.problems.join('; ')}`}
          </span>
        )}
      </div>
      <PanelState state={entries} what="the audit log">
        {(list) =>
          list.length === 0 ? (
            <p className="fa-empty-text">No entries</p>
          ) : (
            <table className="fa-dev-table" aria-label="Security audit log">
              <thead>
                <tr>
                  <th>Time</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>Subject</th>
                  <th>Details</th>
                </tr>
              </thead>
              <tbody>
                {list.map((e) => (
                  <tr key={e.id}>
                    <td>{displayDateTime(e.at)}</td>
                    <td>{e.actorEmail ?? ''}</td>
                    <td>{e.action}</td>
                    <td>{e.subject ?? ''}</td>
                    <td>
                      <code>{JSON.stringify(e.details)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </PanelState>
    </section>
  );
}
