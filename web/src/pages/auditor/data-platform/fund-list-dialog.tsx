/** 'View full list' of the status report: the late or on-time funds in a grid, in a modal. */
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import type { AuditorFundRow } from '../../../api/auditor-types';
import { displayDate } from '../../../../../rules';

/** Modal grid of funds. */
export function FundListDialog({ title, funds, visible, onHide }: { title: string; funds: readonly AuditorFundRow[]; visible: boolean; onHide: () => void }) {
  return (
    <Dialog header={title} visible={visible} onHide={onHide} style={{ width: 'min(1000px, 95vw)' }} className="fa-aud" modal dismissableMask>
      <DataTable
        value={funds as AuditorFundRow[]}
        dataKey="id"
        size="small"
        paginator={funds.length > 10}
        rows={10}
        emptyMessage="No data available"
        sortMode="single"
        removableSort
        aria-label={title}
      >
        <Column field="name" header="Fund name" sortable />
        <Column field="client" header="Client" sortable />
        <Column field="administrator" header="TPA" sortable />
        <Column field="dueDate" header="Data due date" sortable body={(r: AuditorFundRow) => displayDate(r.dueDate)} />
        <Column field="dataStatusUIField" header="Data status" />
        <Column field="uploadStatus" header="Status" sortable />
      </DataTable>
    </Dialog>
  );
}
