/**
 * Export files (/export): the queue of exports with their downloads (a short-lived token from
 * `GET /export/token`, then `GET /export/file/{id}?token=`), live status changes from the socket's
 * `export` events, and deletion of export files older than 90 days after confirmation.
 */
import { useCallback, useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog, confirmDialog } from 'primereact/confirmdialog';
import { deleteOldExports, exportFileUrl, fetchDownloadToken, fetchExports } from '../../api/delivery-files';
import type { ExportRow } from '../../api/delivery-types';
import { DURATION } from '../../api/errors';
import { openDownload } from '../../api/download';
import { usePagedList, type PageFetcher } from '../../components/grid/use-paged-list';
import { usePageTitle } from '../../components/use-page-title';
import { notify } from '../../state/notifications';
import { socketEvents } from '../../state/socket';
import { ExportGrid } from './files/export-grid';
import './delivery.css';

/** Export files page size (spec section 9). */
export const EXPORT_PAGE_SIZE = 200;

/** An export's status change on the socket (the statuses of an export row, or 'deleted'). */
interface ExportEvent {
  id: number;
  status: ExportRow['status'] | 'deleted';
}

function isExportEvent(data: unknown): data is ExportEvent {
  return typeof data === 'object' && data !== null && typeof (data as ExportEvent).id === 'number' && typeof (data as ExportEvent).status === 'string';
}

/** The Export files page. */
export function ExportPage() {
  usePageTitle('Export files');
  const fetcher = useCallback<PageFetcher<ExportRow>>((offset, limit, signal) => fetchExports(offset, limit, signal), []);
  const list = usePagedList(fetcher, EXPORT_PAGE_SIZE);
  const { patch, reload } = list;
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = socketEvents.on('export', (data) => {
      if (!isExportEvent(data)) return;
      const { status } = data;
      if (status !== 'deleted')
        patch(
          (r) => r.id === data.id,
          (r) => ({ ...r, status }),
        );
      clearTimeout(timer);
      timer = setTimeout(() => void reload(true), 500);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [patch, reload]);

  const download = async (row: ExportRow) => {
    try {
      const { token } = await fetchDownloadToken();
      openDownload(exportFileUrl(row.id, token));
    } catch {
      // the default error notification was shown
    }
  };

  const deleteOld = async () => {
    setDeleting(true);
    try {
      const { deleted } = await deleteOldExports();
      notify({ severity: 'success', detail: `${deleted} export file${deleted === 1 ? '' : 's'} older than 90 days deleted`, life: DURATION.success });
      await reload(true);
    } catch {
      notify({ severity: 'error', summary: 'Failed request', detail: 'Delete export files older than 90 days failed.' });
    } finally {
      setDeleting(false);
    }
  };

  const confirmDelete = () =>
    confirmDialog({
      header: 'Delete old export files',
      message: 'Delete every export file older than 90 days? This cannot be undone.',
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: 'Delete',
      rejectLabel: 'Cancel',
      acceptClassName: 'p-button-danger',
      defaultFocus: 'reject',
      accept: () => void deleteOld(),
    });

  return (
    <section className="fa-page fa-file-page" aria-labelledby="fa-export-title">
      <div className="fa-page-head">
        <h1 id="fa-export-title">Export files</h1>
        <span className="fa-action-spacer" />
        <Button type="button" label="Refresh" icon="pi pi-refresh" size="small" outlined onClick={() => void reload()} />
        <Button
          type="button"
          label="Delete export files older than 90 days"
          icon="pi pi-trash"
          size="small"
          severity="danger"
          outlined
          loading={deleting}
          onClick={confirmDelete}
        />
      </div>
      <ExportGrid list={list} onDownload={(r) => void download(r)} />
      <ConfirmDialog />
    </section>
  );
}
