/**
 * Step 4 of the Self-Onboarding wizard: drop fund request and SDM files (.csv, several at once,
 * named after their type or under the TPA's own names: the server types those by their header). Failed files show under 'Failed files' with their error; the lists
 * show file name, identified as, error and received at. Process is offered once a fund request
 * file and an SDM file are ready.
 */
import { useRef, useState, type DragEvent } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { addSdmFile, type SdmFile } from '../../../api/self-onboarding';
import { ApiError } from '../../../api/errors';
import { canProcess, SDM_FILE_TYPES } from './wizard-state';
import { displayDateTime } from '../../../../../rules';

/** A file the server or the name check refused. */
interface FailedFile {
  name: string;
  error: string;
}

function FileTable({ title, files, empty }: { title: string; files: readonly SdmFile[]; empty: string }) {
  return (
    <section style={{ marginTop: '1rem' }}>
      <h4 style={{ margin: '0 0 .35rem' }}>{title}</h4>
      {files.length === 0 ? (
        <p className="fa-empty-text" style={{ margin: 0 }}>
          {empty}
        </p>
      ) : (
        <table className="fa-plain-table" aria-label={title}>
          <thead>
            <tr>
              <th style={{ textAlign: 'left' }}>File name</th>
              <th style={{ textAlign: 'left' }}>Identified as</th>
              <th style={{ textAlign: 'left' }}>Status</th>
              <th style={{ textAlign: 'left' }}>Error</th>
              <th style={{ textAlign: 'left' }}>Received at</th>
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.id}>
                <td>{f.file_name}</td>
                <td>{f.sub_type}</td>
                <td>{f.status}</td>
                <td className={f.errors.length ? 'fa-field-error' : ''}>{f.errors.join('; ')}</td>
                <td>{displayDateTime(f.received_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The drop files step. `onFile` receives each file the server accepted (or refused with errors). */
export function FilesStep({
  uploadId,
  files,
  onFile,
  onBack,
  onProcess,
  processing,
}: {
  uploadId: number;
  files: readonly SdmFile[];
  onFile: (f: SdmFile) => void;
  onBack: () => void;
  onProcess: (forceRun: boolean) => void;
  processing: boolean;
}) {
  const [failed, setFailed] = useState<FailedFile[]>([]);
  const [sending, setSending] = useState(0);
  const [over, setOver] = useState(false);
  const [forceRun, setForceRun] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const add = async (list: FileList | null) => {
    const chosen = list ? Array.from(list) : [];
    for (const file of chosen) {
      if (!/\.csv$/i.test(file.name)) {
        setFailed((f) => [...f, { name: file.name, error: 'Only .csv files can be added' }]);
        continue;
      }
      setSending((n) => n + 1);
      try {
        const row = await addSdmFile(uploadId, file);
        onFile(row);
        if (row.status === 'Error') setFailed((f) => [...f, { name: file.name, error: row.errors.join('; ') }]);
      } catch (err) {
        setFailed((f) => [...f, { name: file.name, error: err instanceof ApiError ? err.message : `${file.name} upload failed` }]);
      } finally {
        setSending((n) => n - 1);
      }
    }
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    void add(e.dataTransfer.files);
  };

  return (
    <div className="fa-aud-card" data-testid="sdm-files">
      <h3 style={{ marginTop: 0 }}>Drop files</h3>
      <div
        className={`fa-dropzone${over ? ' fa-over' : ''}`}
        role="button"
        tabIndex={0}
        aria-label="Drop fund request and SDM .csv files here or press to browse"
        onClick={() => input.current?.click()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            input.current?.click();
          }
        }}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <i className="pi pi-cloud-upload" style={{ fontSize: '2rem', color: 'var(--fa-brand)' }} aria-hidden="true" />
        <p style={{ margin: '.5rem 0 0' }}>
          Drop the fund request file and the TPA's SDM files here, or click to browse: under the TPA's own names (each is typed by its header) or named after
          their type ({SDM_FILE_TYPES.map((t) => `${t}.csv`).join(', ')}, fund_request.csv).
        </p>
        {sending > 0 && (
          <p role="status">
            Uploading {sending} file{sending === 1 ? '' : 's'}...
          </p>
        )}
      </div>
      <input
        ref={input}
        type="file"
        accept=".csv"
        multiple
        hidden
        data-testid="sdm-file-input"
        onChange={(e) => {
          void add(e.target.files);
          e.target.value = '';
        }}
      />
      {failed.length > 0 && (
        <section className="fa-error-banner" aria-label="Failed files" aria-live="polite">
          <strong>Failed files</strong>
          <ul>
            {failed.map((f, i) => (
              <li key={i}>
                {f.name}: {f.error}
              </li>
            ))}
          </ul>
        </section>
      )}
      <FileTable title="Fund requests" files={files.filter((f) => f.type === 'FundRequest')} empty="No fund requests" />
      <FileTable title="SDM files" files={files.filter((f) => f.type !== 'FundRequest')} empty="No SDM files" />
      <div className="fa-aud-toolbar" style={{ marginTop: '1rem' }}>
        <Button label="Back" icon="pi pi-arrow-left" outlined onClick={onBack} />
        <span className="fa-grow" />
        <Checkbox inputId="fa-sdm-force" checked={forceRun} onChange={(e) => setForceRun(Boolean(e.checked))} />
        <label htmlFor="fa-sdm-force">Force run</label>
        {canProcess(files) && <Button label="Process" icon="pi pi-play" loading={processing} disabled={sending > 0} onClick={() => onProcess(forceRun)} />}
      </div>
    </div>
  );
}
