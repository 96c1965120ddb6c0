/**
 * Bulk upload (`/funds/upload`, delivery spec section 2 "Bulk upload"): the CSV template, a single
 * .csv drop zone validated by the server (`POST funds/upload`), the approved grid (ticked rows are
 * saved) and the requires-action / declined grid, whose ticked rows the round Accept and Decline
 * buttons move, and a save of the first
 * 100 selected accepted rows (`POST funds`) after a confirmation naming the 48-hour turnaround
 * rule. Saved rows leave the grids; rows the server refuses stay with its errors.
 */
import { useMemo, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { saveBulkRows, validateBulkCsv, type BulkUploadResult } from '../../api/bulk-upload';
import { downloadWithToken } from '../../api/auditor';
import { ApiError, DURATION } from '../../api/errors';
import { uploadErrorNotice } from '../../components/files/upload-errors';
import { UploadZone } from '../../components/files/upload-zone';
import { usePageTitle } from '../../components/use-page-title';
import { notify } from '../../state/notifications';
import { fundsChanged } from '../../state/data-platform';
import { acceptRows, actionRows, approvedRows, declineRows, MAX_SAVE, reviewRows, rowsToSave, selectRows, type ReviewRow } from './bulk-upload/bulk-rows';
import { ReviewGrid } from './bulk-upload/review-grid';
import { isoOfDate } from '../../../../rules';
import './delivery.css';

const TURNAROUND_NOTE = 'The 48 hour turnaround does not apply to requests uploaded less than one week before the data due date.';

/** The Bulk upload page. */
export function BulkUploadPage() {
  usePageTitle('Bulk upload');
  const [file, setFile] = useState<BulkUploadResult | null>(null);
  const [rows, setRows] = useState<ReviewRow[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);
  const approved = useMemo(() => approvedRows(rows), [rows]);
  const pending = useMemo(() => actionRows(rows), [rows]);
  const ticked = (list: ReviewRow[]) => new Set(list.filter((r) => r.selected).map((r) => r.columnName));
  const toSave = useMemo(() => rowsToSave(rows), [rows]);

  const upload = async (files: File[]): Promise<boolean> => {
    const csv = files[0];
    try {
      const result = await validateBulkCsv(csv);
      setFile(result);
      setRows(reviewRows(result));
      if (result.declined.length || result.editable.length) notify({ severity: 'warn', detail: `${csv.name} failed validation`, life: DURATION.default });
      else notify({ severity: 'success', detail: `${csv.name} uploaded`, life: DURATION.success });
      return true;
    } catch (err) {
      const n = uploadErrorNotice(err as ApiError, csv.name);
      notify({ severity: 'error', summary: n.summary, detail: n.detail, life: n.life });
      return false;
    }
  };

  /** Replaces the selection of one grid's rows. */
  const select = (grid: ReviewRow[]) => (lines: Set<number>) => {
    const mine = new Set(grid.map((r) => r.columnName));
    setRows((all) => selectRows(selectRows(all, mine, false), new Set([...lines].filter((l) => mine.has(l))), true));
  };

  const save = async () => {
    setConfirming(false);
    setSaving(true);
    try {
      const { batch } = toSave;
      const res = await saveBulkRows(isoOfDate(new Date())!, batch);
      const failed = new Map(res.failed.map((f) => [f.fund.columnName, f.errors]));
      const sent = new Set(batch.map((r) => r.columnName));
      setRows((all) =>
        all
          .filter((r) => !sent.has(r.columnName) || failed.has(r.columnName))
          .map((r) => (failed.has(r.columnName) ? { ...r, errors: failed.get(r.columnName)!, frBulkuploadStatus: 'declined', selected: false } : r)),
      );
      if (res.saved.length) {
        fundsChanged();
        notify({ severity: 'success', detail: 'Save successful', life: DURATION.saveSuccess });
      }
      if (res.failed.length)
        notify({
          severity: 'warn',
          summary: `${res.failed.length} row${res.failed.length === 1 ? '' : 's'} not saved`,
          detail: 'Their errors are in the grid.',
          life: DURATION.default,
        });
    } catch (err) {
      const e = err as ApiError;
      notify({ severity: 'error', summary: 'Save failed', detail: e.message, life: DURATION.default });
    } finally {
      setSaving(false);
    }
  };

  // the round buttons act on the rows ticked below; ticks above choose what is saved
  const pendingTicked = ticked(pending);
  return (
    <div className="fa-page fa-bulk-page">
      <div className="fa-bulk-top">
        <Button label="Download template" icon="pi pi-download" outlined onClick={() => void downloadWithToken('/fund-request/download', { inPlace: true })} />
        <UploadZone label="Bulk upload file" onUpload={upload} multiple={false} accept=".csv" hint="One .csv file of fund requests (the template's columns)." />
      </div>
      {!file && <p className="fa-empty-text">Upload a .csv file to review its fund requests here before saving them.</p>}
      {file && (
        <>
          <p className="fa-muted" role="status">
            {file.fileName}: {file.totalRows} rows ({approved.length} approved, {pending.length} requiring action or declined)
          </p>
          <ReviewGrid title="Approved" rows={approved} onSelect={select(approved)} />
          <div className="fa-bulk-actions" role="toolbar" aria-label="Move selected rows">
            <Button
              icon="pi pi-check"
              rounded
              aria-label="Accept selected rows"
              tooltip="Accept selected rows"
              disabled={!pendingTicked.size}
              onClick={() => setRows((all) => acceptRows(all, pendingTicked))}
            />
            <Button
              icon="pi pi-times"
              rounded
              severity="danger"
              aria-label="Decline selected rows"
              tooltip="Decline selected rows"
              disabled={!pendingTicked.size}
              onClick={() => setRows((all) => declineRows(all, pendingTicked))}
            />
          </div>
          <ReviewGrid title="Requires action and declined" rows={pending} onSelect={select(pending)} />
          <div className="fa-bulk-save">
            <Button
              label={`Save ${toSave.batch.length} fund request${toSave.batch.length === 1 ? '' : 's'}`}
              icon="pi pi-save"
              disabled={!toSave.batch.length}
              loading={saving}
              onClick={() => setConfirming(true)}
            />
            {toSave.remaining > 0 && (
              <span className="fa-muted">
                {toSave.remaining} more selected rows wait for the next save (at most {MAX_SAVE} at a time).
              </span>
            )}
          </div>
        </>
      )}
      <ConfirmDialog
        visible={confirming}
        onHide={() => setConfirming(false)}
        header="Save fund requests"
        message={
          <div>
            <p>
              Save {toSave.batch.length} fund request{toSave.batch.length === 1 ? '' : 's'}
              {toSave.batch.some((r) => r.isEditable) ? ', overwriting the existing requests you accepted' : ''}?
            </p>
            <p>{TURNAROUND_NOTE}</p>
          </div>
        }
        acceptLabel="Save"
        rejectLabel="Cancel"
        accept={() => void save()}
        reject={() => setConfirming(false)}
      />
    </div>
  );
}
