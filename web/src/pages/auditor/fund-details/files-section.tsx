/** Files of a fund in the details modal: input files, standardization files and work papers with their status and QA validations. */
import type { FundFile, QaEntry } from '../../../api/auditor-types';
import { formatDateTime } from '../../../components/auditor/format';

/** File status display (spec section 4): Pending, Ready, Ready rerun, In review, Not applicable. */
export function fileStatusLabel(f: Pick<FundFile, 'status' | 'disabled' | 'reviewed'>, rerunCount: number): string {
  if (f.disabled) return 'Not applicable';
  if ((f.status ?? '').toLowerCase() === 'pending') return 'Pending';
  if (!f.reviewed) return 'In review';
  return rerunCount > 0 ? 'Ready rerun' : 'Ready';
}

function qaText(e: QaEntry): string {
  if (e.error) return e.error;
  if (e.column || e.file) return [e.column, e.file].filter(Boolean).join(' - ');
  return [e.name ?? e.defined_name, e.diff !== undefined && e.diff !== null ? `diff ${e.diff}` : ''].filter(Boolean).join(': ');
}

/** The QA validations of a file: failed (red), warnings (orange) or all clear (green), with the items. */
function QaCell({ file }: { file: FundFile }) {
  const items = [...(file.validation?.QA_Rec ?? []), ...(file.validation?.QA_Mapping ?? [])];
  const failed = items.filter((i) => /fail|error/i.test(i.status ?? ''));
  const warnings = items.filter((i) => /warn/i.test(i.status ?? ''));
  const [color, label] = failed.length ? ['#b91c1c', `${failed.length} failed`] : warnings.length ? ['#d97706', `${warnings.length} warnings`] : ['#15803d', 'All clear'];
  const listed = failed.length ? failed : warnings;
  return (
    <details>
      <summary style={{ cursor: 'pointer' }}>
        <i className="pi pi-circle-fill" style={{ color, fontSize: '.7rem', marginRight: '.35rem' }} aria-hidden="true" />
        {label}
      </summary>
      {listed.length > 0 && (
        <ul style={{ margin: '.25rem 0', paddingLeft: '1.25rem' }}>
          {listed.map((i, n) => (
            <li key={n}>{qaText(i)}</li>
          ))}
        </ul>
      )}
    </details>
  );
}

/** One group of files as a small table. */
function FileGroup({ title, files, rerunCount, qa }: { title: string; files: readonly FundFile[]; rerunCount: number; qa: boolean }) {
  return (
    <section>
      <h3 style={{ fontSize: '1rem', margin: '1rem 0 .35rem' }}>{title}</h3>
      {files.length === 0 ? (
        <p className="fa-empty-text" style={{ margin: 0 }}>No data</p>
      ) : (
        <table style={{ width: '100%', borderCollapse: 'collapse' }} aria-label={title}>
          <thead>
            <tr>
              <th style={{ textAlign: 'left' }}>File</th>
              <th style={{ textAlign: 'left' }}>Type</th>
              <th style={{ textAlign: 'left' }}>Received</th>
              <th style={{ textAlign: 'left' }}>Status</th>
              {qa && <th style={{ textAlign: 'left' }}>QA validation</th>}
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.id}>
                <td>{f.filename}</td>
                <td>{f.name ?? f.fileType ?? ''}</td>
                <td>{formatDateTime(f.timestamp)}</td>
                <td>{fileStatusLabel(f, rerunCount)}</td>
                {qa && <td><QaCell file={f} /></td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The three file groups of a fund. */
export function FilesSection({ inputFiles, standardizationFiles, workPapers, rerunCount, qa }: {
  inputFiles: readonly FundFile[]; standardizationFiles: readonly FundFile[]; workPapers: readonly FundFile[]; rerunCount: number; qa: boolean;
}) {
  return (
    <div data-testid="fund-files">
      <FileGroup title="Input files" files={inputFiles} rerunCount={rerunCount} qa={qa} />
      <FileGroup title="Standardization files" files={standardizationFiles} rerunCount={rerunCount} qa={qa} />
      <FileGroup title="Work papers" files={workPapers} rerunCount={rerunCount} qa={qa} />
    </div>
  );
}
