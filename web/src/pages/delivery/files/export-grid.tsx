/**
 * The Export files grid: User, Administrators, Files, Download, Status, Date (newest first, 200
 * per page). Only done exports offer the download; an error shows its reason.
 */
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import type { ExportRow } from '../../../api/delivery-types';
import { StatusTag } from '../../../components/files/status-tag';
import { GridError, pagedTableProps } from '../../../components/grid/grid-message';
import type { PagedList } from '../../../components/grid/use-paged-list';
import { displayDateTime } from '../../../../../rules';

/** Download stage labels (auditor spec 2.3 "Downloads"). */
export const STAGE_LABELS: Record<string, string> = {
  visualization: 'Work papers',
  calculations: 'Calculations',
  standardization: 'Standardization',
  identification: 'Identification',
  import: 'Raw import',
  fundRequest: 'Fund request',
};

/** The Files cell: the funds of the export and the stages asked for. */
function FilesCell({ row }: { row: ExportRow }) {
  const funds = Object.values(row.payload?.fund_requests ?? {});
  const stages = row.payload?.inputs?.fundRequestStages ?? [];
  if (!funds.length) return <span className="fa-muted">Unavailable</span>;
  return (
    <div className="fa-export-files">
      <div>{funds.map((f) => (f.fundCode ? `${f.name} (${f.fundCode})` : f.name)).join(', ')}</div>
      {stages.length > 0 && <small className="fa-muted">{stages.map((s) => STAGE_LABELS[s] ?? s).join(', ')}</small>}
    </div>
  );
}

export interface ExportGridProps {
  list: PagedList<ExportRow>;
  onDownload: (row: ExportRow) => void;
}

/** The grid of exports. */
export function ExportGrid({ list, onDownload }: ExportGridProps) {
  if (list.error && !list.loading) return <GridError message={list.error} onRetry={() => void list.reload()} />;
  return (
    <DataTable {...pagedTableProps(list, 'No downloads requested')} className="fa-file-grid fa-export-grid">
      <Column header="User" body={(r: ExportRow) => r.user ?? ''} />
      <Column header="Administrators" body={(r: ExportRow) => r.administrators.join(', ')} />
      <Column header="Files" body={(r: ExportRow) => <FilesCell row={r} />} style={{ minWidth: '16rem' }} />
      <Column
        header="Download"
        body={(r: ExportRow) =>
          r.status === 'done' ? (
            <Button
              type="button"
              icon="pi pi-download"
              rounded
              text
              aria-label={`Download ${r.fileName}`}
              title={`Download ${r.fileName}`}
              onClick={() => onDownload(r)}
            />
          ) : (
            <span className="fa-muted" aria-label="Not available yet">
              -
            </span>
          )
        }
      />
      <Column
        header="Status"
        body={(r: ExportRow) => (
          <span title={r.status === 'error' && r.payload?.error ? r.payload.error : undefined}>
            <StatusTag status={r.status} />
            {r.status === 'error' && r.payload?.error && <small className="fa-export-error"> {r.payload.error}</small>}
          </span>
        )}
      />
      <Column header="Date" body={(r: ExportRow) => displayDateTime(r.created_at)} />
    </DataTable>
  );
}
