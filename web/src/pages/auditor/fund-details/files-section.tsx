/**
 * Files of a fund in the details modal: input files, standardization files and work papers with
 * the server's status label and QA Validations popover (a work paper shows its fund's calculation
 * checks).
 */
import type { FundFile } from '../../../api/auditor-types';
import { QaPopover } from '../../../components/files/qa-popover';
import { formatDateTime } from '../../../components/auditor/format';

/** One group of files as a small table. */
function FileGroup({ title, files, qa }: { title: string; files: readonly FundFile[]; qa: boolean }) {
  return (
    <section>
      <h3 style={{ fontSize: '1rem', margin: '1rem 0 .35rem' }}>{title}</h3>
      {files.length === 0 ? (
        <p className="fa-empty-text" style={{ margin: 0 }}>
          No data
        </p>
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
                <td>{f.statusLabel}</td>
                {qa && (
                  <td>
                    <QaPopover qa={f.qa} fileName={f.filename} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The three file groups of a fund. */
export function FilesSection({
  inputFiles,
  standardizationFiles,
  workPapers,
  qa,
}: {
  inputFiles: readonly FundFile[];
  standardizationFiles: readonly FundFile[];
  workPapers: readonly FundFile[];
  qa: boolean;
}) {
  return (
    <div data-testid="fund-files">
      <FileGroup title="Input files" files={inputFiles} qa={qa} />
      <FileGroup title="Standardization files" files={standardizationFiles} qa={qa} />
      <FileGroup title="Work papers" files={workPapers} qa={qa} />
    </div>
  );
}
