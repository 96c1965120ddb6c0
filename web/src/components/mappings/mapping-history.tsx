/**
 * A mapping's history, on the delivery team's Live mappings and the auditor's Custom Mapping:
 * every version (number, date, author, reason, rows, content hash, the funds it fed) with a
 * download of each, and the difference between two chosen versions (rows added, removed and
 * changed, column by column).
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { downloadWithToken } from '../../api/auditor';
import { errorText, ApiError } from '../../api/errors';
import { fetchMappingDiff, fetchMappingHistory, type MappingHistory, type MappingRowValues, type MappingVersionDiff } from '../../api/mapping-versions';
import './mapping-history.css';
import { displayDateTime } from '../../../../rules';

const showRow = (r: MappingRowValues) =>
  Object.entries(r)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

/** The rows changed between two versions. */
function DiffView({ diff }: { diff: MappingVersionDiff }) {
  return (
    <section className="fa-mapping-diff" aria-label={`Changes from version ${diff.from} to version ${diff.to}`}>
      <p role="status">
        Version {diff.from} to {diff.to}: {diff.added.length} added, {diff.removed.length} removed, {diff.changed.length} changed, {diff.unchanged} unchanged
      </p>
      <table className="fa-mapping-diff-table">
        <thead>
          <tr>
            <th>Change</th>
            <th>Row</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {diff.added.map((x) => (
            <tr key={`a${x.key}`} className="fa-diff-added">
              <td>Added</td>
              <td>{x.key}</td>
              <td>{showRow(x.row)}</td>
            </tr>
          ))}
          {diff.removed.map((x) => (
            <tr key={`r${x.key}`} className="fa-diff-removed">
              <td>Removed</td>
              <td>{x.key}</td>
              <td>{showRow(x.row)}</td>
            </tr>
          ))}
          {diff.changed.map((x) => (
            <tr key={`c${x.key}`} className="fa-diff-changed">
              <td>Changed</td>
              <td>{x.key}</td>
              <td>{x.columns.map((c) => `${c}: ${x.from[c] ?? ''} → ${x.to[c] ?? ''}`).join('; ')}</td>
            </tr>
          ))}
          {!diff.added.length && !diff.removed.length && !diff.changed.length && (
            <tr>
              <td colSpan={3}>The two versions have the same rows</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

/** The funds a mapping feeds, the first five by code (or id) and how many more. */
export function fundsText(funds: ReadonlyArray<{ id: number; code: string | null }>): string {
  const shown = funds.slice(0, 5).map((f) => f.code ?? f.id);
  return funds.length > 5 ? `${shown.join(', ')} and ${funds.length - 5} more` : shown.join(', ');
}

/** The history dialog of one mapping (`mappingId` null: closed). */
export function MappingHistoryDialog({ mappingId, onHide }: { mappingId: number | null; onHide: () => void }) {
  const [history, setHistory] = useState<MappingHistory | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const [diff, setDiff] = useState<MappingVersionDiff | null>(null);

  useEffect(() => {
    setHistory(null);
    setDiff(null);
    setError(null);
    if (mappingId === null) return;
    fetchMappingHistory(mappingId).then(
      (h) => {
        setHistory(h);
        // compare the two newest versions by default
        setTo(h.versions[0]?.version ?? null);
        setFrom(h.versions[1]?.version ?? h.versions[0]?.version ?? null);
      },
      (e) => setError(e instanceof ApiError ? e.message : 'The history could not be loaded'),
    );
  }, [mappingId]);

  const compare = () => {
    if (mappingId === null || from === null || to === null) return;
    fetchMappingDiff(mappingId, from, to).then(setDiff, (e) =>
      setError(e instanceof ApiError ? [e.message, ...e.errors.map(errorText)].join('; ') : 'The versions could not be compared'),
    );
  };
  const versions = history?.versions ?? [];
  const select = (label: string, value: number | null, set: (v: number) => void) => (
    <label>
      {label}{' '}
      <select
        value={value ?? ''}
        onChange={(e) => {
          set(Number(e.target.value));
          setDiff(null);
        }}
      >
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            {v.version}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <Dialog
      visible={mappingId !== null}
      onHide={onHide}
      header={history ? `History of ${history.description} (${history.administrator.name}, ${history.type})` : 'Mapping history'}
      style={{ width: 'min(1100px, 95vw)' }}
      className="fa-mapping-history"
    >
      {error && (
        <p className="fa-error-text" role="alert">
          {error}
        </p>
      )}
      {!history && !error && <p>Loading…</p>}
      {history && (
        <>
          <table className="fa-mapping-versions" aria-label="Versions">
            <thead>
              <tr>
                <th>Version</th>
                <th>Date</th>
                <th>Author</th>
                <th>Reason</th>
                <th>Rows</th>
                <th>Content (sha256)</th>
                <th>Funds fed</th>
                <th>
                  <span className="fa-sr-only">Download</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {history.versions.map((v) => (
                <tr key={v.version}>
                  <td>{v.current ? `${v.version} (current)` : v.version}</td>
                  <td>{displayDateTime(v.createdAt)}</td>
                  <td>{v.author ?? ''}</td>
                  <td>{v.reason}</td>
                  <td>{v.rowCount}</td>
                  <td title={v.sha256}>{v.sha256.slice(0, 12)}</td>
                  <td>{v.funds.map((f) => f.code ?? f.id).join(', ') || 'none'}</td>
                  <td>
                    <Button
                      icon="pi pi-download"
                      rounded
                      text
                      aria-label={`Download version ${v.version}`}
                      onClick={() => void downloadWithToken(`/mappings/download?id=${history.id}&version=${v.version}`, { inPlace: true })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="fa-mapping-compare" role="group" aria-label="Compare versions">
            {select('From version', from, setFrom)} {select('to version', to, setTo)}{' '}
            <Button label="Compare" size="small" onClick={compare} disabled={from === null || to === null} />
          </div>
          {diff && <DiffView diff={diff} />}
        </>
      )}
    </Dialog>
  );
}
