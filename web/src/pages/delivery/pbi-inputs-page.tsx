/**
 * PowerBI inputs (/pbi-inputs, only when `pbiInputs` is on; delivery spec "PowerBI inputs",
 * section 5: an input type first, .csv only; section 7 `GET /pbi-inputs/types`, `POST
 * pbi-inputs/save` (multipart with `pbiInputsTypes`), `POST /pbi-inputs/list`; section 9: 10 per
 * page, newest first). A saved file's address with its token is shown once, to copy into PowerBI.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Dropdown } from 'primereact/dropdown';
import type { SortSpec } from '../../api/delivery-types';
import type { ApiError } from '../../api/errors';
import { fetchPbiInputs, fetchPbiTypes, savePbiInput, type PbiInputType, type PbiInputView, type SavedPbiInput } from '../../api/pbi-inputs';
import { UploadZone } from '../../components/files/upload-zone';
import { nextSorting } from '../../components/grid/sort-cycle';
import { usePagedList, type PageFetcher } from '../../components/grid/use-paged-list';
import { SecretReveal } from '../../components/secret-reveal';
import { usePageTitle } from '../../components/use-page-title';
import { notify, notifyError } from '../../state/notifications';
import { PbiGrid } from './pbi-inputs/pbi-grid';
import './delivery.css';
import './dev-tools.css';
import { displayDateTime } from '../../../../rules';

/** PowerBI inputs page size (spec section 9). */
export const PBI_PAGE_SIZE = 10;

/** The PowerBI inputs page. */
export function PbiInputsPage() {
  usePageTitle('PowerBI Inputs');
  const [types, setTypes] = useState<PbiInputType[] | null>(null);
  const [typesFailed, setTypesFailed] = useState(false);
  const [type, setType] = useState<string | null>(null);
  const [saved, setSaved] = useState<SavedPbiInput | null>(null);
  const [sorting, setSorting] = useState<SortSpec[]>([]);
  const fetcher = useCallback<PageFetcher<PbiInputView>>((offset, limit, signal) => fetchPbiInputs(offset, limit, signal, sorting), [sorting]);
  const list = usePagedList(fetcher, PBI_PAGE_SIZE);
  const { reload } = list;
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

  useEffect(() => {
    fetchPbiTypes().then(setTypes, () => setTypesFailed(true));
  }, []);
  const chosen = useMemo(() => types?.find((t) => t.code === type), [types, type]);

  const upload = async (files: File[]): Promise<boolean> => {
    const file = files[0];
    if (!type || !file) return false;
    if (!/\.csv$/i.test(file.name)) {
      notify({ severity: 'error', detail: `${file.name} is not a .csv file: PowerBI inputs take .csv files only` });
      return false;
    }
    try {
      const result = await savePbiInput(type, file);
      setSaved(result);
      notify({ severity: 'success', detail: `${result.file_name} uploaded`, life: 3_000 });
      if (list.offset === 0) await reload(true);
      else list.setOffset(0);
      return true;
    } catch (err) {
      notifyError(err as ApiError);
      return false;
    }
  };

  return (
    <section className="fa-page fa-file-page" aria-labelledby="fa-pbi-title">
      <div className="fa-page-head">
        <h1 id="fa-pbi-title">PowerBI Inputs</h1>
      </div>
      <div className="fa-toolbar">
        <label htmlFor="fa-pbi-type">Input type</label>
        <Dropdown
          inputId="fa-pbi-type"
          value={type}
          className="fa-pbi-type"
          options={(types ?? []).map((t) => ({ value: t.code, label: t.name }))}
          onChange={(e) => setType(e.value as string)}
          placeholder={typesFailed ? 'Input types could not be loaded' : types ? 'Choose an input type' : 'Loading input types...'}
          showClear
        />
      </div>
      {chosen && (
        <p className="fa-empty-text" data-testid="pbi-type-help">
          {chosen.description} Columns needed: {chosen.columns.join(', ')}.
        </p>
      )}
      <UploadZone
        label="PowerBI input file"
        onUpload={upload}
        disabled={!type}
        disabledHint="Choose an input type first."
        multiple={false}
        accept=".csv,text/csv"
        hint="One .csv file of the chosen input type."
      />
      {saved && (
        <section className="fa-card" aria-labelledby="fa-pbi-saved">
          <h2 id="fa-pbi-saved">{saved.file_name}</h2>
          <SecretReveal
            label={`Download address of ${saved.file_name}`}
            value={saved.url}
            details={[`PowerBI reads the file at this address until ${displayDateTime(saved.token_expiry_date)}; the token in it is the file's SAS token.`]}
          />
        </section>
      )}
      <PbiGrid list={list} sorting={sorting} onSort={(field, multi) => setSorting((s) => nextSorting(s, field, multi))} />
    </section>
  );
}
