/**
 * Files of a fund in the details modal: input files, standardization files and work papers with
 * their status as the auditor spec names it (Pending, Ready, Ready rerun, In review, Not
 * applicable) and the QA Validations popover (a work paper shows its fund's calculation checks); a
 * work paper also shows the outcome its Summary gives ('Incomplete data' when a standardization
 * behind it is Invalid, else PASS, WARNING or FAIL). An input file a newer delivery of its type
 * replaced says so; its standardization is not listed beside the current one.
 */
import { auditorFileStatus, listedStandardizations, displayDateTime } from '../../../../../rules';
import type { FundFile } from '../../../api/auditor-types';
import { QaPopover } from '../../../components/files/qa-popover';
import './files-section.css';

/** One group of files as a small table. */
function FileGroup({
  title,
  files,
  qa,
  rerunCount,
  outcome = false,
}: {
  title: string;
  files: readonly FundFile[];
  qa: boolean;
  rerunCount: number;
  outcome?: boolean;
}) {
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
                <td data-col="file">
                  {f.filename}
                  {f.supersededBy && <span className="fa-ad-file-note">Replaced by {f.supersededBy.filename}</span>}
                </td>
                <td>{f.name ?? f.fileType ?? ''}</td>
                <td>{displayDateTime(f.timestamp)}</td>
                <td data-col="status">{auditorFileStatus(f, rerunCount)}</td>
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

/** The three file groups of a fund; `rerunCount` is the fund's (a reviewed file is 'Ready rerun' when above 0). */
export function FilesSection({
  inputFiles,
  standardizationFiles,
  workPapers,
  qa,
  rerunCount,
}: {
  inputFiles: readonly FundFile[];
  standardizationFiles: readonly FundFile[];
  workPapers: readonly FundFile[];
  qa: boolean;
  rerunCount: number;
}) {
  return (
    <div data-testid="fund-files">
      <FileGroup title="Input files" files={inputFiles} qa={qa} rerunCount={rerunCount} />
      <FileGroup title="Standardization files" files={listedStandardizations(standardizationFiles)} qa={qa} rerunCount={rerunCount} />
      <FileGroup title="Work papers" files={workPapers} qa={qa} rerunCount={rerunCount} outcome />
    </div>
  );
}
