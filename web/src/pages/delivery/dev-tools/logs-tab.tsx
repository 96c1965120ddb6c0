/**
 * Settings, Developer logs tab (delivery spec "Developer tools": log files to download and a tail
 * viewer taking a file and a line count; section 7 `POST /logs/list`, `POST /logs/last-lines
 * {count, file}` with a default of 100 lines, `GET logs/download/?file&token`).
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { fetchLastLines, fetchLogFiles, logDownloadUrl } from '../../../api/dev-tools';
import { fetchDownloadToken } from '../../../api/delivery-files';
import { openDownload } from '../../../api/download';
import { PanelState } from './panel-state';
import { useLoad } from './use-load';
import { displayDateTime } from '../../../../../rules';

/** Tail length shown first (spec: default tail 100 lines). */
export const DEFAULT_TAIL = 100;

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);

/** The Developer logs tab. */
export function LogsTab() {
  const files = useLoad(fetchLogFiles);
  const [file, setFile] = useState<string | null>(null);
  const [count, setCount] = useState<number | null>(DEFAULT_TAIL);
  const [tail, setTail] = useState<{ file: string; lines: string[]; truncated: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  // the server's own log is the first choice
  useEffect(() => {
    if (!file && files.data?.length) setFile(files.data.find((f) => f.file === 'fund-audit.log')?.file ?? files.data[0].file);
  }, [files.data, file]);

  const download = async (name: string) => {
    try {
      const { token } = await fetchDownloadToken();
      openDownload(logDownloadUrl(name, token));
    } catch {
      // the default error notification was shown
    }
  };
  const show = async () => {
    if (!file) return;
    setBusy(true);
    try {
      setTail(await fetchLastLines(file, count ?? DEFAULT_TAIL));
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="fa-dev-logs">
      <section className="fa-card" aria-labelledby="fa-dev-logfiles">
        <div className="fa-card-head">
          <h2 id="fa-dev-logfiles">Log files</h2>
          <Button type="button" icon="pi pi-refresh" text rounded aria-label="Reload the log files" onClick={() => void files.reload()} />
        </div>
        <PanelState state={files} what="the log files">
          {(list) =>
            list.length === 0 ? (
              <p className="fa-empty-text">No log files</p>
            ) : (
              <table className="fa-dev-table" aria-label="Log files">
                <thead>
                  <tr>
                    <th>File</th>
                    <th>Size</th>
                    <th>Last written</th>
                    <th>
                      <span className="fa-sr-only">Download</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((f) => (
                    <tr key={f.file}>
                      <td>{f.file}</td>
                      <td>{size(f.size)}</td>
                      <td>{displayDateTime(f.modified)}</td>
                      <td>
                        <Button
                          type="button"
                          icon="pi pi-download"
                          label="Download"
                          size="small"
                          text
                          aria-label={`Download ${f.file}`}
                          onClick={() => void download(f.file)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </PanelState>
      </section>
      <section className="fa-card" aria-labelledby="fa-dev-tail">
        <h2 id="fa-dev-tail">Tail</h2>
        <form className="fa-toolbar" onSubmit={(e) => (e.preventDefault(), void show())}>
          <label htmlFor="fa-dev-tail-file">File</label>
          <Dropdown
            inputId="fa-dev-tail-file"
            value={file}
            options={(files.data ?? []).map((f) => ({ value: f.file, label: f.file }))}
            onChange={(e) => setFile(e.value as string)}
            placeholder="Choose a log file"
          />
          <label htmlFor="fa-dev-tail-count">Lines</label>
          <InputNumber
            inputId="fa-dev-tail-count"
            value={count}
            onValueChange={(e) => setCount(e.value ?? null)}
            min={1}
            max={10_000}
            useGrouping={false}
            size={6}
          />
          <Button type="submit" label="Show last lines" icon="pi pi-align-left" size="small" loading={busy} disabled={!file} />
        </form>
        {tail && (
          <>
            <p className="fa-empty-text">
              {tail.lines.length} line{tail.lines.length === 1 ? '' : 's'} of {tail.file}
              {tail.truncated ? ' (the end of the file)' : ' (the whole file)'}
            </p>
            <pre className="fa-dev-tail" role="log" aria-label={`Last lines of ${tail.file}`} tabIndex={0}>
              {tail.lines.join('\n')}
            </pre>
          </>
        )}
      </section>
    </div>
  );
}
