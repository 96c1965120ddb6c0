/**
 * Import files (/import): choose an administrator, drop one or more files (uploaded as multipart
 * `administrator` + `upload` to `POST /import/files`), and follow them in the grid; statuses
 * change live from the socket's `import-file` events.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { useSnapshot } from 'valtio';
import { fetchImports, uploadImportFiles } from '../../api/delivery-files';
import type { ImportFileRow, SortSpec } from '../../api/delivery-types';
import type { ApiError } from '../../api/errors';
import { uploadErrorNotice } from '../../components/files/upload-errors';
import { UploadZone } from '../../components/files/upload-zone';
import { nextSorting } from '../../components/grid/sort-cycle';
import { usePagedList, type PageFetcher } from '../../components/grid/use-paged-list';
import { usePageTitle } from '../../components/use-page-title';
import { notify } from '../../state/notifications';
import { session } from '../../state/session';
import { loadNrd, nrdStore, optionsOf } from '../../state/nrd';
import { socketEvents } from '../../state/socket';
import { ImportGrid } from './files/import-grid';
import './delivery.css';

/** Import files page size (spec section 9). */
export const IMPORT_PAGE_SIZE = 200;

/** A byte count as the largest fitting unit (1024-based): '200 MB', '1.5 GB'. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

/** An `import-file` socket event. */
/** An import file's status change on the socket. */
interface ImportEvent {
  id: number;
  status: ImportFileRow['status'];
  error?: string;
}

function isImportEvent(data: unknown): data is ImportEvent {
  return typeof data === 'object' && data !== null && typeof (data as ImportEvent).id === 'number' && typeof (data as ImportEvent).status === 'string';
}

/** The Import files page. */
export function ImportPage() {
  usePageTitle('Import files');
  const { nrd, failed } = useSnapshot(nrdStore);
  // the configured upload limit (delivery spec 5: the maximum size shown is a configured limit)
  const maxBytes = useSnapshot(session).config?.maxUploadBytes ?? 200 * 1024 * 1024;
  const [administrator, setAdministrator] = useState<string | null>(null);
  const [sorting, setSorting] = useState<SortSpec[]>([]);
  const fetcher = useCallback<PageFetcher<ImportFileRow>>((offset, limit, signal) => fetchImports(offset, limit, signal, sorting), [sorting]);
  const list = usePagedList(fetcher, IMPORT_PAGE_SIZE);
  const { patch, reload } = list;
  // a new order reads the first page again
  const sortedOnce = useRef(false);
  useEffect(() => {
    if (!sortedOnce.current) {
      sortedOnce.current = true;
      return;
    }
    if (list.offset === 0) void reload();
    else list.setOffset(0);
  }, [sorting]);
  const options = useMemo(() => optionsOf(nrd?.administrators), [nrd]);

  useEffect(() => {
    void loadNrd();
  }, []);

  // live statuses: patch the row at once, then reload quietly for type and sub type
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = socketEvents.on('import-file', (data) => {
      if (!isImportEvent(data)) return;
      patch(
        (r) => r.id === data.id,
        (r) => ({ ...r, status: data.status, payload: data.error ? { ...r.payload, error: data.error } : r.payload }),
      );
      clearTimeout(timer);
      timer = setTimeout(() => void reload(true), 800);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [patch, reload]);

  const upload = async (files: File[]): Promise<boolean> => {
    if (!administrator || files.length === 0) return false;
    try {
      const rows = await uploadImportFiles(administrator, files);
      notify({ severity: 'success', detail: rows.length === 1 ? `${rows[0].fileName} uploaded` : `${rows.length} files uploaded`, life: 3_000 });
      await reload(true);
      return true;
    } catch (err) {
      const n = uploadErrorNotice(err as ApiError, files.map((f) => f.name).join(', '));
      notify({ severity: 'error', detail: n.detail, life: n.life });
      return false;
    }
  };

  return (
    <section className="fa-page fa-file-page" aria-labelledby="fa-import-title">
      <div className="fa-page-head">
        <h1 id="fa-import-title">Import files</h1>
      </div>
      <div className="fa-toolbar">
        <label htmlFor="fa-import-admin">Administrator</label>
        <Dropdown
          inputId="fa-import-admin"
          value={administrator}
          options={options}
          onChange={(e) => setAdministrator(e.value as string)}
          placeholder={failed ? 'Administrators could not be loaded' : 'Choose an administrator'}
          filter
          showClear
          className="fa-admin-select"
        />
      </div>
      <UploadZone
        label="Files to import"
        onUpload={upload}
        disabled={!administrator}
        disabledHint="Choose an administrator first."
        hint={`Maximum size ${formatBytes(maxBytes)} per upload; larger files go by the MOVEit transfer service.`}
      />
      <ImportGrid list={list} sorting={sorting} onSort={(field, multi) => setSorting((s) => nextSorting(s, field, multi))} />
    </section>
  );
}
