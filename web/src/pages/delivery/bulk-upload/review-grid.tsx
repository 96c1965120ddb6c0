/**
 * One grid of the Bulk upload review: the approved rows, or the rows that require action and the
 * declined ones. Tick boxes follow the selection rules of bulk-rows.ts; the Errors column counts
 * faults and warnings, with every message in a tooltip (hover or keyboard focus).
 */
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Tooltip } from 'primereact/tooltip';
import { formatCsvDate } from '../../../components/grid/format';
import { errorSummary, isSelectable, type ReviewRow } from './bulk-rows';

/** The Errors cell with its tooltip. */
function ErrorsCell({ row }: { row: ReviewRow }) {
  const text = errorSummary(row);
  if (!text && !row.note) return null;
  const id = `fa-bulk-errors-${row.columnName}`;
  return (
    <>
      <span id={id} tabIndex={0} className={row.errors.faults.length ? 'fa-bulk-faults' : 'fa-bulk-warnings'} data-testid="bulk-errors">
        {text || 'Note'}
      </span>
      <Tooltip target={`#${id}`} event="both" position="left">
        <ul className="fa-bulk-tip">
          {row.errors.faults.map((f, i) => (
            <li key={`f${i}`}>
              <strong>Fault:</strong> {f.message}
            </li>
          ))}
          {row.errors.warnings.map((w, i) => (
            <li key={`w${i}`}>
              <strong>Warning:</strong> {w.message}
            </li>
          ))}
          {row.note && <li>{row.note}</li>}
        </ul>
      </Tooltip>
    </>
  );
}

const statusLabel = (r: ReviewRow) =>
  r.frBulkuploadStatus === 'editable'
    ? 'Requires action'
    : r.frBulkuploadStatus === 'accepted'
      ? r.isEditable
        ? 'Accepted (overwrite)'
        : 'Accepted'
      : 'Declined';

/** A review grid; `onSelect` gets the CSV line numbers ticked in this grid. */
export function ReviewGrid({ title, rows, onSelect }: { title: string; rows: ReviewRow[]; onSelect: (lines: Set<number>) => void }) {
  return (
    <section className="fa-bulk-grid" aria-label={title}>
      <h3>
        {title} <span className="fa-muted">({rows.length})</span>
      </h3>
      <DataTable
        value={rows}
        dataKey="columnName"
        size="small"
        stripedRows
        paginator={rows.length > 200}
        rows={200}
        selectionMode="checkbox"
        selection={rows.filter((r) => r.selected)}
        onSelectionChange={(e) => onSelect(new Set((e.value as ReviewRow[]).map((r) => r.columnName)))}
        isDataSelectable={(e) => isSelectable(e.data as ReviewRow)}
        rowClassName={(r: ReviewRow) => ({ 'fa-row-error': r.frBulkuploadStatus === 'declined' })}
        emptyMessage="No rows"
        scrollable
      >
        <Column selectionMode="multiple" headerStyle={{ width: '3rem' }} />
        <Column header="Row" field="columnName" />
        <Column header="Status" body={statusLabel} />
        <Column header="Errors" body={(r: ReviewRow) => <ErrorsCell row={r} />} />
        <Column header="TPA" field="tpa" />
        <Column header="Client" field="clientName" />
        <Column header="Fund Name" field="fundName" />
        <Column header="Fund Code" field="fundShortCode" />
        <Column header="Period end" body={(r: ReviewRow) => formatCsvDate(r.financialEndDate as string | undefined)} />
        <Column header="Data due" body={(r: ReviewRow) => formatCsvDate(r.dataDueDate as string | undefined)} />
        <Column header="Currency" field="fundCurrency" />
      </DataTable>
    </section>
  );
}
