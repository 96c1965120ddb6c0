/**
 * Live mappings (`/mappings`, delivery spec section 2 "Live mappings"): upload a mapping csv for an
 * administrator, type and mode (master, new custom, update custom) with the server's validation
 * banners; every active mapping in a grid grouped by administrator (Type, Kind, Name, Owner,
 * Client, Reason, Date, Version, Funds fed, history, download, delete); a mapping's history shows
 * its versions and the rows changed between two; 'Download report' of the custom mappings;
 * 'Delete selected'.
 * Only rows the server marks `canToggle` can be selected (custom mappings of their creator, or any
 * for a delivery team member; never masters); the server checks the rule again on delete.
 */
import { useCallback, useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { downloadWithToken } from '../../api/auditor';
import { deleteMapping, deleteSelectedMappings, fetchMappings, type MappingRow } from '../../api/custom-mappings';
import { ApiError, errorText } from '../../api/errors';
import { GridError } from '../../components/grid/grid-message';
import { ensureAuditorStyles } from '../../components/auditor/auditor-styles';
import { usePageTitle } from '../../components/use-page-title';
import { notify } from '../../state/notifications';
import { UploadForm } from '../../components/mappings/upload-form';
import { groupByAdministrator } from '../../components/mappings/mapping-rules';
import { fundsText, MappingHistoryDialog } from '../../components/mappings/mapping-history';
import './delivery.css';
import { displayDateTime } from '../../../../rules';

/** Rows in group order (administrator name), with the group's label for the subheader. */
const grouped = (mappings: readonly MappingRow[]) =>
  groupByAdministrator(mappings).flatMap((g) => g.mappings.map((m) => ({ ...m, group: `${g.administrator} (${g.mappings.length})` })));

/** The Live mappings page. */
/** A snake_case name that may wrap after each underscore (`share_capital_mapping`), so long names never widen the grid past the window. */
function breakable(text: string | null | undefined) {
  const parts = (text ?? '').split('_');
  return parts.map((p, i) => (i < parts.length - 1 ? [`${p}_`, <wbr key={i} />] : p));
}

export function MappingsPage() {
  usePageTitle('Live mappings');
  // the upload form is the Custom Mapping tab's, styled by the auditor area's rules
  ensureAuditorStyles();
  const [mappings, setMappings] = useState<MappingRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<MappingRow[]>([]);
  const [deleting, setDeleting] = useState<MappingRow[] | null>(null);
  // 'Delete selected' deletes through one call (`POST /mappings/delete-selected-custom-mappings`)
  const [bySelection, setBySelection] = useState(false);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const load = useCallback(() => {
    fetchMappings().then(
      (list) => {
        setMappings(list);
        setFailed(false);
        setSelected((sel) => sel.filter((s) => list.some((m) => m.id === s.id)));
      },
      () => setFailed(true),
    );
  }, []);
  useEffect(load, [load]);

  const remove = async (rows: MappingRow[], selection: boolean) => {
    setDeleting(null);
    try {
      if (selection) await deleteSelectedMappings(rows.map((r) => r.id));
      else await deleteMapping(rows[0].id);
      notify({ severity: 'success', detail: rows.length === 1 ? `${rows[0].description} deleted` : `${rows.length} mappings deleted`, life: 2400 });
    } catch (err) {
      const list = err instanceof ApiError ? err.errors.map(errorText) : [];
      notify({ severity: 'error', summary: 'Something went wrong when we tried to delete the mapping', detail: list.join('; ') || 'An error occurred' });
    }
    load();
  };

  if (failed && !mappings) return <GridError message="The mappings could not be loaded." onRetry={load} />;
  const customs = mappings?.filter((m) => m.kind === 'custom') ?? [];
  return (
    <div className="fa-page fa-mappings-page">
      {mappings && <UploadForm mappings={mappings} onUploaded={load} allowMaster title="Upload a mapping" />}
      <div className="fa-mappings-toolbar" role="toolbar" aria-label="Mapping actions">
        <Button
          label="Download report"
          icon="pi pi-download"
          outlined
          onClick={() => void downloadWithToken('/mappings/custom-mapping-info', { inPlace: true })}
          disabled={!customs.length}
        />
        <Button
          label="Delete selected"
          icon="pi pi-trash"
          severity="danger"
          outlined
          disabled={!selected.length}
          onClick={() => {
            setBySelection(true);
            setDeleting(selected);
          }}
        />
      </div>
      {mappings && !customs.length && (
        <p className="fa-empty-text" role="status">
          No custom mappings active
        </p>
      )}
      <DataTable
        value={mappings ? grouped(mappings) : []}
        loading={!mappings}
        dataKey="id"
        rowGroupMode="subheader"
        groupRowsBy="group"
        rowGroupHeaderTemplate={(r: MappingRow & { group: string }) => <strong>{r.group}</strong>}
        selectionMode="checkbox"
        selection={selected}
        onSelectionChange={(e) => setSelected(e.value as MappingRow[])}
        isDataSelectable={(e) => Boolean((e.data as MappingRow).canToggle)}
        paginator={(mappings?.length ?? 0) > 50}
        rows={50}
        size="small"
        stripedRows
        emptyMessage="No mappings"
        className="fa-mappings-grid"
        aria-label="Live mappings"
      >
        <Column selectionMode="multiple" headerStyle={{ width: '3rem' }} />
        <Column header="Type" body={(m: MappingRow) => breakable(m.type)} />
        <Column header="Kind" field="kind" bodyClassName="fa-map-keep" />
        <Column header="Name" body={(m: MappingRow) => breakable(m.description)} />
        <Column header="Owner" body={(m: MappingRow) => m.owner ?? ''} />
        <Column header="Client" body={(m: MappingRow) => m.clientName ?? ''} />
        <Column header="Reason" body={(m: MappingRow) => m.rationale ?? ''} />
        <Column header="Date" body={(m: MappingRow) => displayDateTime(m.updated_at)} />
        <Column header="Version" body={(m: MappingRow) => m.version ?? ''} bodyClassName="fa-map-keep" />
        <Column header="Funds" body={(m: MappingRow) => fundsText(m.funds ?? m.fundRequests)} />
        <Column
          header={<span className="fa-sr-only">Actions</span>}
          body={(m: MappingRow) => (
            <span style={{ whiteSpace: 'nowrap' }}>
              <Button icon="pi pi-history" rounded text aria-label={`History of ${m.description}`} onClick={() => setHistoryOf(m.id)} />
              <Button
                icon="pi pi-download"
                rounded
                text
                aria-label={`Download ${m.description}`}
                onClick={() => void downloadWithToken(`/mappings/download?id=${m.id}`, { inPlace: true })}
              />
              {m.kind === 'custom' && (
                <Button
                  icon="pi pi-trash"
                  rounded
                  text
                  severity="danger"
                  aria-label={`Delete ${m.description}`}
                  disabled={!m.canLiveMappingBeDeleted || !m.canToggle}
                  tooltip={
                    !m.canToggle
                      ? 'Only its creator or a delivery team member can delete it'
                      : !m.canLiveMappingBeDeleted
                        ? `In use by ${m.fundRequests.map((f) => f.code ?? f.id).join(', ')}`
                        : undefined
                  }
                  tooltipOptions={{ showOnDisabled: true }}
                  onClick={() => {
                    setBySelection(false);
                    setDeleting([m]);
                  }}
                />
              )}
            </span>
          )}
        />
      </DataTable>
      <MappingHistoryDialog mappingId={historyOf} onHide={() => setHistoryOf(null)} />
      <ConfirmDialog
        visible={deleting !== null}
        onHide={() => setDeleting(null)}
        header="Delete mappings"
        message={
          deleting ? (deleting.length === 1 ? `Delete the custom mapping ${deleting[0].description}?` : `Delete ${deleting.length} custom mappings?`) : ''
        }
        icon="pi pi-exclamation-triangle"
        acceptLabel="Delete"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        accept={() => deleting && void remove(deleting, bySelection)}
      />
    </div>
  );
}
