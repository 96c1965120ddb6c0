/**
 * Custom Mapping 'Manage' view (auditor spec 2.3, 5, 8): create or update a custom mapping by
 * uploading a csv (administrator, type, mode, name, client, reason; the upload is enabled once
 * they are valid), and the mappings grouped by administrator with a count badge and a table
 * (version, reason and the funds each feeds; the history of its versions with the rows changed
 * between two, as on Live mappings; download; delete for custom mappings not in use, after
 * confirmation).
 */
import { useState } from 'react';
import { Badge } from 'primereact/badge';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { downloadWithToken } from '../../../api/auditor';
import { deleteMapping, type MappingRow } from '../../../api/custom-mappings';
import { ApiError, errorText } from '../../../api/errors';
import { breakableName } from '../../../components/break-name';
import { fundsText, MappingHistoryDialog } from '../../../components/mappings/mapping-history';
import { notify } from '../../../state/notifications';
import { groupByAdministrator } from '../../../components/mappings/mapping-rules';
import { UploadForm } from '../../../components/mappings/upload-form';
import { displayDate } from '../../../../../rules';

/** The mappings of one administrator. */
function MappingGroup({
  name,
  mappings,
  onDelete,
  onHistory,
}: {
  name: string;
  mappings: readonly MappingRow[];
  onDelete: (m: MappingRow) => void;
  onHistory: (m: MappingRow) => void;
}) {
  return (
    <section className="fa-aud-card" aria-label={`Mappings of ${name}`} style={{ marginTop: '1rem' }}>
      <h3 style={{ marginTop: 0 }}>
        {name} <Badge value={mappings.length} />
      </h3>
      <div className="fa-cm-scroll">
        <table className="fa-cm-mappings">
          <thead>
            <tr>
              {['Name', 'Type', 'Kind', 'Client', 'Owner', 'Reason', 'Updated', 'Version', 'Funds fed'].map((h) => (
                <th key={h}>{h}</th>
              ))}
              <th>
                <span className="fa-sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {mappings.map((m) => (
              <tr key={m.id}>
                <td>
                  <span className="fa-cm-id">{breakableName(m.description)}</span>
                </td>
                <td>
                  <span className="fa-cm-id">{breakableName(m.type)}</span>
                </td>
                <td>{m.kind}</td>
                <td>{m.clientName ?? ''}</td>
                <td>{m.owner ?? ''}</td>
                <td>{m.rationale ?? ''}</td>
                <td>{displayDate(m.updated_at)}</td>
                <td data-col="version">{m.version}</td>
                <td>{fundsText(m.funds)}</td>
                <td>
                  <Button icon="pi pi-history" rounded text aria-label={`History of ${m.description}`} onClick={() => onHistory(m)} />
                  <Button
                    icon="pi pi-download"
                    rounded
                    text
                    aria-label={`Download ${m.description}`}
                    onClick={() => void downloadWithToken(`/mappings/download?id=${m.id}`)}
                  />
                  {m.kind === 'custom' && (
                    <Button
                      icon="pi pi-trash"
                      rounded
                      text
                      severity="danger"
                      aria-label={`Delete ${m.description}`}
                      disabled={!m.canLiveMappingBeDeleted}
                      tooltip={m.canLiveMappingBeDeleted ? undefined : `In use by ${m.fundRequests.map((f) => f.code ?? f.id).join(', ')}`}
                      tooltipOptions={{ showOnDisabled: true }}
                      onClick={() => onDelete(m)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The Manage view. */
export function ManageView({ mappings, onChanged }: { mappings: readonly MappingRow[]; onChanged: () => void }) {
  const [deleting, setDeleting] = useState<MappingRow | null>(null);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const remove = async (m: MappingRow) => {
    try {
      await deleteMapping(m.id);
      notify({ severity: 'success', detail: `${m.description} deleted`, life: 2400 });
      onChanged();
    } catch (err) {
      const list = err instanceof ApiError ? err.errors.map(errorText) : [];
      notify({ severity: 'error', summary: 'Something went wrong when we tried to delete the mapping', detail: list.join(', ') || 'An error occurred' });
    }
  };
  return (
    <div data-testid="custom-mapping-manage">
      <UploadForm mappings={mappings} onUploaded={onChanged} />
      {groupByAdministrator(mappings).map((g) => (
        <MappingGroup key={g.code} name={g.administrator} mappings={g.mappings} onDelete={setDeleting} onHistory={(m) => setHistoryOf(m.id)} />
      ))}
      {mappings.length === 0 && <p className="fa-empty-text">No data available</p>}
      <MappingHistoryDialog mappingId={historyOf} onHide={() => setHistoryOf(null)} />
      <ConfirmDialog
        visible={deleting !== null}
        onHide={() => setDeleting(null)}
        header="Delete mapping"
        message={deleting ? `Delete the custom mapping ${deleting.description}?` : ''}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Delete"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        accept={() => deleting && void remove(deleting)}
      />
    </div>
  );
}
