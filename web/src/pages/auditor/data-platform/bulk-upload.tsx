/**
 * Bulk Upload tab (auditor spec 2.3): Step 1 download the template, Step 2 upload it (the 'Bulk
 * upload' modal, `POST /fund-request/bulk`), Step 3 review ('You have N rejected funds', 'View
 * errors' opening the 'Validation' modal), then the results grid with Completed / Incomplete rows.
 * A 'Duplicate Fund' error (in the notice and the modal) links to the existing fund's details.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { useSnapshot } from 'valtio';
import { downloadWithToken, uploadBulk } from '../../../api/auditor';
import type { BulkResult } from '../../../api/auditor-types';
import { ApiError, DURATION, formatUploadError } from '../../../api/errors';
import { formatCsvDate } from '../../../components/grid/format';
import { dataPlatform, fundsChanged } from '../../../state/data-platform';
import { notify } from '../../../state/notifications';
import { FundDetailsModal } from '../fund-details/fund-details-modal';
import { BulkUploadModal } from './bulk-upload-modal';

/** A row of the results grid. */
export interface BulkRow {
  key: string;
  line: number | null;
  status: 'Completed' | 'Incomplete';
  fundName: string;
  clientName: string;
  tpa: string;
  fundShortCode: string;
  dataDueDate: string;
  errors: string[];
  /** existing fund requests named by 'Duplicate Fund' errors */
  duplicateOf: number[];
}

/** One error of the upload: 'Row N: message', with the fund a 'Duplicate Fund' error names. */
export interface BulkError {
  text: string;
  fundId: number | null;
}

/** Results grid rows: rejected rows (by CSV line) then saved ones. Completed when a row has no faults. */
export function bulkRows(result: BulkResult): BulkRow[] {
  const failed = [...result.failed]
    .sort((a, b) => (a.fund.columnName ?? 0) - (b.fund.columnName ?? 0))
    .map((f, i): BulkRow => {
      const v = f.fund;
      const faults = f.errors?.faults ?? [];
      return {
        key: `f${i}`,
        line: typeof v.columnName === 'number' ? v.columnName : null,
        status: faults.length ? 'Incomplete' : 'Completed',
        fundName: String(v.fundName ?? ''),
        clientName: String(v.clientName ?? ''),
        tpa: String(v.tpa ?? ''),
        fundShortCode: String(v.fundShortCode ?? ''),
        dataDueDate: String(v.dataDueDate ?? ''),
        errors: faults.map((x) => x.message),
        duplicateOf: faults.flatMap((x) => (x.type === 'Duplicate Fund' && Number.isInteger(x.id) ? [x.id as number] : [])),
      };
    });
  const saved = result.saved.map(
    (s): BulkRow => ({
      key: `s${s.id}`,
      line: typeof s.columnName === 'number' ? s.columnName : null,
      status: 'Completed',
      fundName: s.fundName,
      clientName: s.clientName ?? '',
      tpa: s.tpa,
      fundShortCode: s.fundShortCode,
      dataDueDate: s.dataDueDate ?? '',
      errors: [],
      duplicateOf: [],
    }),
  );
  return [...failed, ...saved];
}

/** Every error of the rejected rows as 'Row N: message', with the fund a 'Duplicate Fund' error names. */
export function bulkErrors(result: BulkResult): BulkError[] {
  const out: BulkError[] = [];
  for (const f of [...result.failed].sort((a, b) => (a.fund.columnName ?? 0) - (b.fund.columnName ?? 0))) {
    const line = typeof f.fund.columnName === 'number' ? f.fund.columnName : null;
    for (const x of f.errors?.faults ?? [])
      out.push({
        text: line !== null ? `Row ${line}: ${x.message}` : x.message,
        fundId: x.type === 'Duplicate Fund' && Number.isInteger(x.id) ? (x.id as number) : null,
      });
  }
  return out;
}

/** Opens the details of the fund a 'Duplicate Fund' error names. */
const openFund = (id: number) => {
  dataPlatform.bulk.openFundId = id;
};

/** The bulk validation notice (spec section 8): up to 5 errors and 'Showing X out of Y errors', 60 s. */
function notifyRejected(result: BulkResult): void {
  const errors = bulkErrors(result);
  if (!result.failed.length) return;
  const shown = errors.slice(0, 5);
  notify({
    severity: 'warn',
    // 'You have N rejected funds' is the Review step's; the notice does not say it a second time
    summary: 'Bulk validation',
    detail: `${shown.map((e) => e.text).join('\n')}${errors.length > shown.length ? `\nShowing ${shown.length} out of ${errors.length} errors` : ''}`,
    life: DURATION.validation,
    links: [...new Set(shown.flatMap((e) => (e.fundId !== null ? [e.fundId] : [])))].map((id) => ({ label: `Open fund ${id}`, onClick: () => openFund(id) })),
  });
}

/** The Bulk Upload tab. */
export function BulkUpload() {
  const { bulk } = useSnapshot(dataPlatform);
  const [modalOpen, setModalOpen] = useState(false);
  const [errorsOpen, setErrorsOpen] = useState(false);
  const result = bulk.result as BulkResult | null;
  const rows = result ? bulkRows(result) : [];
  const rejected = result?.failed.length ?? 0;

  const upload = async (file: File) => {
    dataPlatform.bulk.uploading = true;
    dataPlatform.bulk.fileName = file.name;
    try {
      const r = await uploadBulk(file);
      dataPlatform.bulk.result = r;
      if (r.saved.length) {
        notify({ severity: 'success', detail: `${r.saved.length} fund request${r.saved.length === 1 ? '' : 's'} saved`, life: DURATION.saveSuccess });
        fundsChanged();
      }
      notifyRejected(r);
    } catch (err) {
      const n = formatUploadError(err instanceof ApiError ? err : { errors: [] }, file.name);
      notify({ severity: 'error', detail: n.detail, life: n.life });
    } finally {
      dataPlatform.bulk.uploading = false;
    }
  };

  return (
    <div data-testid="bulk-upload">
      <h2 style={{ marginTop: 0 }}>Follow the steps below to bulk upload funds</h2>
      <ol className="fa-steps" style={{ listStyle: 'none', padding: 0 }}>
        <li className="fa-aud-card fa-step">
          <h3>
            <span className="fa-step-number">1</span>Download new template
          </h3>
          <p className="fa-muted">The CSV template with every column and one example row.</p>
          <Button
            label="Download"
            icon="pi pi-download"
            outlined
            onClick={() => void downloadWithToken('/fund-request/download', { inPlace: true, notice: 'Downloading the bulk upload template' })}
          />
        </li>
        <li className="fa-aud-card fa-step">
          <h3>
            <span className="fa-step-number">2</span>Upload template
          </h3>
          <p className="fa-muted">Fill in one row per fund request, then upload the .csv file.</p>
          <Button label="Upload" icon="pi pi-upload" loading={bulk.uploading} onClick={() => setModalOpen(true)} />
        </li>
        <li className="fa-aud-card fa-step" data-testid="bulk-review">
          <h3>
            <span className="fa-step-number">3</span>Review
          </h3>
          {bulk.uploading && <p role="status">Uploading {bulk.fileName}...</p>}
          {!bulk.uploading && !result && <p className="fa-muted">The results of your upload show here.</p>}
          {!bulk.uploading && result && (
            <>
              <p style={{ marginTop: 0 }}>
                {result.saved.length} of {result.totalRows} fund request{result.totalRows === 1 ? '' : 's'} saved from {bulk.fileName}.
              </p>
              {rejected > 0 ? (
                <p>
                  <strong>
                    You have {rejected} rejected fund{rejected === 1 ? '' : 's'}
                  </strong>{' '}
                  <button type="button" className="fa-linkbutton" onClick={() => setErrorsOpen(true)}>
                    View errors
                  </button>
                </p>
              ) : (
                <p>No rejected funds.</p>
              )}
            </>
          )}
        </li>
      </ol>
      {result && (
        <DataTable
          value={rows}
          dataKey="key"
          size="small"
          paginator={rows.length > 200}
          rows={200}
          emptyMessage="No data available"
          aria-label="Bulk upload results"
          stripedRows
        >
          <Column
            header="Status"
            body={(r: BulkRow) => <span className={`fa-tag ${r.status === 'Completed' ? 'fa-tag-done' : 'fa-tag-error'}`}>{r.status}</span>}
          />
          <Column header="Row" body={(r: BulkRow) => r.line ?? ''} />
          <Column field="fundName" header="Fund name" />
          <Column field="clientName" header="Client" />
          <Column field="tpa" header="TPA" />
          <Column field="fundShortCode" header="Fund code" />
          <Column header="Data due date" body={(r: BulkRow) => formatCsvDate(r.dataDueDate)} />
          <Column header="Errors" body={(r: BulkRow) => (r.errors.length ? r.errors.join('; ') : '')} style={{ maxWidth: '28rem' }} />
        </DataTable>
      )}
      {bulk.openFundId !== null && (
        <FundDetailsModal
          fundId={bulk.openFundId}
          onClose={() => {
            dataPlatform.bulk.openFundId = null;
          }}
          onOpenFund={openFund}
        />
      )}
      <BulkUploadModal visible={modalOpen} onHide={() => setModalOpen(false)} onUpload={(f) => void upload(f)} />
      <Dialog
        header="Validation"
        visible={errorsOpen}
        onHide={() => setErrorsOpen(false)}
        className="fa-aud"
        style={{ width: 'min(720px, 95vw)' }}
        modal
        footer={
          <div className="fa-dialog-footer">
            <Button label="OK" onClick={() => setErrorsOpen(false)} autoFocus />
          </div>
        }
      >
        <p style={{ marginTop: 0 }}>Fix these errors then upload a new csv file</p>
        <ul style={{ maxHeight: '50vh', overflowY: 'auto', paddingLeft: '1.25rem' }} data-testid="bulk-errors">
          {result
            ? bulkErrors(result).map((e, i) => (
                <li key={i}>
                  {e.text}
                  {e.fundId !== null && (
                    <>
                      {' '}
                      <button
                        type="button"
                        className="fa-linkbutton"
                        onClick={() => {
                          setErrorsOpen(false);
                          openFund(e.fundId as number);
                        }}
                      >
                        Open fund {e.fundId}
                      </button>
                    </>
                  )}
                </li>
              ))
            : null}
        </ul>
      </Dialog>
    </div>
  );
}
