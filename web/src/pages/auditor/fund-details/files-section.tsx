/**
 * Files of a fund in the details modal: input files, standardization files and work papers with
 * the server's status label and QA Validations popover (a work paper shows its fund's calculation
 * checks); a work paper also shows the outcome its Summary gives ('Incomplete data' when a
 * standardization behind it is Invalid, else PASS, WARNING or FAIL).
 */
import type { FundFile } from '../../../api/auditor-types';
import { QaPopover } from '../../../components/files/qa-popover';
import { formatDateTime } from '../../../components/auditor/format';
import './files-section.css';

/** One group of files as a small table. */
function FileGroup({ title, files, qa, outcome = false }: { title: string; files: readonly FundFile[]; qa: boolean; outcome?: boolean }) {
  return (
    <section>
      <h3 style={{ fontSize: '1rem', margin: '1rem 0 .35rem' }}>{title}</h3>
      {files.length === 0 ? (
        <p className="fa-empty-text" style={{ margin: 0 }}>
          No data
        </p>
      ) : (
        <table className="fa-ad-files" aria-label={title}>
          <thead>
            <tr>
              <th>File</th>
              <th>Type</th>
              <th>Received</th>
              <th>Status</th>
              {outcome && <th>Outcome</th>}
              {qa && <th>QA validation</th>}
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.id}>
                <td data-col="file">{f.filename}</td>
                <td>{f.name ?? f.fileType ?? ''}</td>
                <td>{formatDateTime(f.timestamp)}</td>
                <td data-col="status">{f.statusLabel}</td>
                {outcome && <td data-col="outcome">{f.outcome ?? ''}</td>}
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
      <FileGroup title="Work papers" files={workPapers} qa={qa} outcome />
    </div>
  );
}
