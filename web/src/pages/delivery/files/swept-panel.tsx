/** The MOVEit files list of Input files: files swept from the inbox folder, newest first, 200 per page. */
import { useCallback, useEffect } from 'react';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { fetchSwept } from '../../../api/delivery-files';
import type { SweptRow } from '../../../api/delivery-types';
import { GridError, pagedTableProps } from '../../../components/grid/grid-message';
import { usePagedList, type PageFetcher } from '../../../components/grid/use-paged-list';
import { socketEvents } from '../../../state/socket';
import { FILE_LIST_PAGE_SIZE } from './issue-files-panel';
import { displayDateTime } from '../../../../../rules';

/** The grid of swept files. */
export function SweptPanel() {
  const fetcher = useCallback<PageFetcher<SweptRow>>((offset, limit, signal) => fetchSwept(offset, limit, signal), []);
  const list = usePagedList(fetcher, FILE_LIST_PAGE_SIZE);
  const { reload } = list;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = socketEvents.on('import-file', () => {
      clearTimeout(timer);
      timer = setTimeout(() => void reload(true), 800);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [reload]);

  if (list.error && !list.loading) return <GridError message={list.error} onRetry={() => void reload()} />;
  return (
    <DataTable {...pagedTableProps(list, 'No files available')} className="fa-file-grid fa-swept-grid">
      <Column header="File" field="original_file_name" style={{ minWidth: '14rem' }} />
      <Column header="Administrator" body={(r: SweptRow) => r.tpa ?? ''} />
      <Column header="Uploaded by" body={(r: SweptRow) => [r.file_uploader_real_name, r.file_uploader_email].filter(Boolean).join(' - ')} />
      <Column header="Path on MOVEit" field="file_path_on_moveit" />
      <Column header="Upload date" body={(r: SweptRow) => displayDateTime(r.file_upload_date)} />
      <Column header="Download date" body={(r: SweptRow) => displayDateTime(r.file_download_date)} />
    </DataTable>
  );
}
