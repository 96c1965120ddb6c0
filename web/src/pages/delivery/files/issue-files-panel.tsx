/**
 * One issue list of Input files (Unidentified, or Identified without match): a paged grid (200
 * per page, newest first, dates DD/MM/YYYY) with multi-select and the assign / action / remove
 * toolbar. Reloads itself when files change (socket `file` and `import-file` events).
 */
import { useCallback, useEffect, useState } from 'react';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { assignIssueFiles, fetchUnidentified, fetchUnmatched, removeIssueFiles, setIssueAction, type IssueKind } from '../../../api/delivery-files';
import type { IssueRowBase, PageOf, UnidentifiedRow, UnmatchedRow } from '../../../api/delivery-types';
import { GridEmpty, GridError } from '../../../components/grid/grid-message';
import { usePagedList, type PageFetcher } from '../../../components/grid/use-paged-list';
import { notify } from '../../../state/notifications';
import { socketEvents } from '../../../state/socket';
import { IssueToolbar } from './issue-toolbar';
import { SheetErrors } from './sheet-errors';
import { displayDateTime } from '../../../../../rules';

/** Input files page size (spec section 9). */
export const FILE_LIST_PAGE_SIZE = 200;

const FETCHERS: Record<IssueKind, (offset: number, limit: number, signal: AbortSignal) => Promise<PageOf<IssueRowBase>>> = {
  unidentified: fetchUnidentified,
  unmatched: fetchUnmatched,
};

export interface IssueFilesPanelProps {
  kind: IssueKind;
  users: ReadonlyArray<{ value: string; label: string }>;
}

/** The grid and toolbar of one issue list. */
export function IssueFilesPanel({ kind, users }: IssueFilesPanelProps) {
  const fetcher = useCallback<PageFetcher<IssueRowBase>>((offset, limit, signal) => FETCHERS[kind](offset, limit, signal), [kind]);
  const list = usePagedList(fetcher, FILE_LIST_PAGE_SIZE);
  const { reload } = list;
  const [selection, setSelection] = useState<IssueRowBase[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void reload(true), 800);
    };
    const offs = [socketEvents.on('file', refresh), socketEvents.on('import-file', refresh)];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [reload]);

  // keep the selection on the rows as last loaded
  useEffect(() => {
    setSelection((sel) => sel.map((s) => list.rows.find((r) => r.id === s.id)).filter((r): r is IssueRowBase => r !== undefined));
  }, [list.rows]);

  const run = async (call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await call();
      notify({ severity: 'success', detail: done, life: 2_400 });
      await reload(true);
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(false);
    }
  };
  const ids = selection.map((r) => r.id);
  const what = ids.length === 1 ? '1 file' : `${ids.length} files`;

  if (list.error && !list.loading) return <GridError message={list.error} onRetry={() => void reload()} />;
  return (
    <div className="fa-issue-panel" data-kind={kind}>
      <IssueToolbar
        idPrefix={`fa-${kind}`}
        selected={ids.length}
        users={users}
        busy={busy}
        onAssign={(userId) => void run(() => assignIssueFiles(kind, ids, userId), `${what} assigned`)}
        onAction={(action) => void run(() => setIssueAction(kind, ids, action), `${what} set to ${action}`)}
        onRemove={() => void run(() => removeIssueFiles(kind, ids).then(() => setSelection([])), `${what} removed`)}
      />
      <DataTable
        value={list.rows}
        dataKey="id"
        lazy
        paginator
        first={list.offset}
        rows={list.limit}
        totalRecords={list.count}
        onPage={(e) => list.setOffset(e.first)}
        loading={list.loading}
        emptyMessage={<GridEmpty text={list.loading ? 'Loading...' : 'No files available'} />}
        selectionMode="multiple"
        metaKeySelection={false}
        selection={selection}
        onSelectionChange={(e) => setSelection(e.value as IssueRowBase[])}
        selectionAriaLabel="file_name"
        size="small"
        stripedRows
        className={`fa-file-grid fa-issue-grid fa-issue-${kind}`}
      >
        <Column selectionMode="multiple" headerStyle={{ width: '3rem' }} />
        <Column header="File" field="file_name" style={{ minWidth: '14rem' }} />
        <Column header="Administrator" body={(r: IssueRowBase) => r.tpa ?? ''} />
        {kind === 'unidentified' && <Column header="Errors" body={(r: UnidentifiedRow) => <SheetErrors errors={r.errors} />} style={{ minWidth: '20rem' }} />}
        {kind === 'unmatched' && <Column header="File type" body={(r: UnmatchedRow) => r.file_type} />}
        {kind === 'unmatched' && <Column header="Fund code" body={(r: UnmatchedRow) => r.fund_code ?? ''} />}
        {kind === 'unmatched' && (
          <Column header="Reason" body={(r: UnmatchedRow) => (typeof r.payload?.reason === 'string' ? r.payload.reason : '')} style={{ minWidth: '16rem' }} />
        )}
        <Column header="Assigned to" body={(r: IssueRowBase) => r.assignedTo ?? ''} />
        <Column header="Action" body={(r: IssueRowBase) => r.action} />
        <Column header="Date" body={(r: IssueRowBase) => displayDateTime(r.timestamp)} />
      </DataTable>
    </div>
  );
}
