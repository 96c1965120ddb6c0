/**
 * Downloads Queue tab (auditor spec 2.3): the user's exports, 8 a page, newest first, with the
 * fund requests, status (Done, Error, Running, Pending), date (DD/MM/YYYY HH:mm:ss) and a download
 * icon when done (`GET /export/token`, then `/export/file/{id}?token=` in a new window); exports
 * older than 90 days can be deleted after confirmation. Live updates from `export` socket events.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable, type DataTablePageEvent } from 'primereact/datatable';
import { deleteOldExports, downloadWithToken, fetchExports } from '../../../api/auditor';
import type { ExportRow } from '../../../api/auditor-types';
import { exportStatusLabel } from '../../../components/auditor/format';
import { useSocketRefresh } from '../../../components/auditor/use-socket-refresh';
import { notify } from '../../../state/notifications';
import { displayDateTime } from '../../../../../rules';

/** Rows per page of the auditor export grid (spec section 9). */
export const EXPORT_ROWS = 8;

/** The Fund requests cell: names and codes; 'Processing...' while the export is being prepared without funds yet, else 'Unavailable'. */
export function fundRequestsText(row: ExportRow): string {
  const funds = Object.values(row.payload?.fund_requests ?? {});
  if (funds.length) return funds.map((f) => (f.fundCode ? `${f.name} (${f.fundCode})` : f.name)).join(', ');
  const label = exportStatusLabel(row.status);
  return label === 'Pending' || label === 'Running' ? 'Processing...' : 'Unavailable';
}

const TAG: Record<string, string> = { Done: 'fa-tag-done', Error: 'fa-tag-error', Running: 'fa-tag-running', Pending: 'fa-tag-pending' };

/** The Downloads Queue tab. */
export function DownloadsQueue() {
  const [rows, setRows] = useState<ExportRow[]>([]);
  const [total, setTotal] = useState(0);
  const [first, setFirst] = useState(0);
  const [loading, setLoading] = useState(true);
  const [confirm, setConfirm] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const load = useCallback(() => {
    abort.current?.abort();
    const ctrl = new AbortController();
    abort.current = ctrl;
    setLoading(true);
    fetchExports(first, EXPORT_ROWS, ctrl.signal)
      .then((page) => {
        if (ctrl.signal.aborted) return;
        setRows(page.rows);
        setTotal(page.pagination.count);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false);
      });
  }, [first]);

  useEffect(() => {
    load();
    return () => abort.current?.abort();
  }, [load]);
  useSocketRefresh(['export'], load, 300);

  const deleteOld = async () => {
    try {
      const { deleted } = await deleteOldExports();
      notify({
        severity: 'success',
        detail: deleted ? `${deleted} export file${deleted === 1 ? '' : 's'} deleted` : 'No export files older than 90 days',
        life: 2400,
      });
      load();
    } catch {
      notify({ severity: 'error', summary: 'Failed request', detail: 'Delete export files older than 90 days failed.' });
    }
  };

  return (
    <div data-testid="downloads-queue">
      <div className="fa-aud-toolbar">
        <span className="fa-grow fa-muted">Your downloads, newest first. Files are ready to download when their status is Done.</span>
        <Button label="Refresh" icon="pi pi-refresh" size="small" text onClick={load} />
        <Button label="Delete older than 90 days" icon="pi pi-trash" size="small" severity="danger" outlined onClick={() => setConfirm(true)} />
      </div>
      <DataTable
        value={rows}
        dataKey="id"
        lazy
        loading={loading}
        paginator
        first={first}
        rows={EXPORT_ROWS}
        totalRecords={total}
        onPage={(e: DataTablePageEvent) => setFirst(e.first)}
        size="small"
        emptyMessage="No data available"
        aria-label="Downloads queue"
        stripedRows
      >
        <Column header="Fund requests" body={(r: ExportRow) => fundRequestsText(r)} />
        <Column
          header="Status"
          body={(r: ExportRow) => {
            const label = exportStatusLabel(r.status);
            return (
              <span className={`fa-tag ${TAG[label]}`} title={label === 'Error' ? (r.payload?.error ?? undefined) : undefined}>
                {label}
              </span>
            );
          }}
          style={{ width: '8rem' }}
        />
        <Column header="Date" body={(r: ExportRow) => displayDateTime(r.created_at)} style={{ width: '12rem' }} />
        <Column
          header={<span className="fa-sr-only">Download</span>}
          body={(r: ExportRow) =>
            exportStatusLabel(r.status) === 'Done' ? (
              <Button
                icon="pi pi-download"
                rounded
                text
                aria-label={`Download export ${r.id}`}
                onClick={() => void downloadWithToken(`/export/file/${r.id}`, { notice: 'Your download is starting' })}
              />
            ) : null
          }
          style={{ width: '4rem' }}
        />
      </DataTable>
      <ConfirmDialog
        visible={confirm}
        onHide={() => setConfirm(false)}
        header="Delete old export files"
        message="Delete every export file older than 90 days? This cannot be undone."
        icon="pi pi-exclamation-triangle"
        acceptLabel="Delete"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        accept={() => void deleteOld()}
      />
    </div>
  );
}
