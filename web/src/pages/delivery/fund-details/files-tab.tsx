/**
 * The Files tab: the fund's four file grids (input, standardization, calculation, work papers)
 * with the server's status label, the validation cell (Valid, Invalid, Not Received, Not Required)
 * and QA Validations popover, and the file actions of delivery spec section 4: review / unreview,
 * required / not required (offered only where the rules module allows them: neither on a pending
 * file, no review of a not-required file, no not-required of a reviewed one), remove an input file
 * (after a confirmation), Release all / Unrelease all work papers, and 'Return to TPA' on an input
 * file (a reason is required; enabled by rules/chasing.ts). An input file a newer delivery of its
 * type replaced says 'Replaced by' the newer one; its old standardization is not listed (rules
 * `listedStandardizations`). File events from the socket reload the fund.
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import {
  canToggleRequired,
  canToggleReview,
  listedStandardizations,
  returnToTpaAction,
  skippedSheetsLabel,
  skippedSheetsText,
  validationCell,
  type ReturnAction,
  type SkippedSheet,
  displayDateTime,
} from '../../../../../rules';
import type { FundFile } from '../../../api/auditor-types';
import { ApiError, errorText } from '../../../api/errors';
import { disableFiles, releaseWorkPapers, removeFiles, reviewFiles } from '../../../api/fund-activity';
import { QaPopover } from '../../../components/files/qa-popover';
import { notify } from '../../../state/notifications';
import { socketEvents } from '../../../state/socket';
import type { FundTabProps } from './tab-props';
import { ReturnDialog } from '../chasing/return-dialog';
import { useFundChases } from '../chasing/use-fund-chases';

type Group = 'input' | 'standardization' | 'calculation' | 'work_paper';

/** Runs a file action, then reloads; a refusal shows the server's reasons. */
async function run(action: () => Promise<unknown>, done: string, reload: () => void) {
  try {
    await action();
    notify({ severity: 'success', detail: done, life: 2400 });
  } catch (err) {
    const e = err as ApiError;
    const summary = e.message || 'The action failed';
    // the message is the first error already: list only the others
    const others = (e.errors ?? []).map(errorText).filter((t) => t && t !== summary);
    notify({ severity: 'error', summary, detail: others.join('; ') });
  }
  reload();
}

/** The sheets of the input file's workbook that no layout matched ('Read Me', notes); none for most files. */
const skippedOf = (f: FundFile) => (f.validation as { skippedSheets?: SkippedSheet[] } | null)?.skippedSheets ?? [];

function FileGrid({
  title,
  group,
  files,
  fundId,
  reload,
  onRemove,
  returnOf,
  onReturn,
}: {
  title: string;
  group: Group;
  files: readonly FundFile[];
  fundId: number;
  reload: () => void;
  onRemove: (f: FundFile) => void;
  /** 'Return to TPA' of a file of this grid. */
  returnOf: (f: FundFile) => ReturnAction;
  onReturn: (f: FundFile) => void;
}) {
  const kind = group;
  return (
    <section className="fa-fd-files" aria-label={title}>
      <h3>
        {title} <span className="fa-muted">({files.length})</span>
      </h3>
      {!files.length ? (
        <p className="fa-empty-text">No files</p>
      ) : (
        <table className="fa-fd-table" aria-label={title}>
          <thead>
            <tr>
              <th>File</th>
              <th>Date</th>
              <th>Rows</th>
              <th>Status</th>
              <th>Validation</th>
              <th>QA validation</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.id} data-file={f.filename}>
                <td>
                  <span className="fa-fd-file-name">{f.filename}</span>
                  {f.fileType && <span className="fa-fd-file-type">{f.fileType}</span>}
                  {f.supersededBy && (
                    <span className="fa-fd-file-type" data-testid="replaced-by">
                      Replaced by {f.supersededBy.filename}
                    </span>
                  )}
                  {group === 'input' && skippedOf(f).length > 0 && (
                    <span className="fa-fd-file-type" data-testid="skipped-sheets" title={skippedSheetsText(skippedOf(f))}>
                      {skippedSheetsLabel(skippedOf(f))}
                    </span>
                  )}
                </td>
                <td>{displayDateTime(f.timestamp)}</td>
                <td>{f.rowCount ?? ''}</td>
                <td data-col="status">{f.statusLabel}</td>
                <td data-col="validation">{validationCell({ disabled: f.disabled, validationStatus: f.validation_status, status: f.status })}</td>
                <td>
                  <QaPopover qa={f.qa} fileName={f.filename} />
                </td>
                <td className="fa-fd-actions">
                  <div className="fa-fd-action-list">
                    {canToggleReview({ kind, status: f.status, reviewed: f.reviewed, disabled: f.disabled }) && (
                      <Button
                        size="small"
                        text
                        label={f.reviewed ? 'Unreview' : 'Review'}
                        aria-label={`${f.reviewed ? 'Unreview' : 'Review'} ${f.filename}`}
                        onClick={() =>
                          void run(() => reviewFiles([f.id], !f.reviewed, fundId), `${f.filename} ${f.reviewed ? 'unreviewed' : 'reviewed'}`, reload)
                        }
                      />
                    )}
                    {canToggleRequired({ kind, status: f.status, reviewed: f.reviewed, disabled: f.disabled }) && (
                      <Button
                        size="small"
                        text
                        label={f.disabled ? 'Required' : 'Not required'}
                        aria-label={`${f.disabled ? 'Mark required' : 'Mark not required'} ${f.filename}`}
                        onClick={() =>
                          void run(() => disableFiles([f.id], !f.disabled), `${f.filename} marked ${f.disabled ? 'required' : 'not required'}`, reload)
                        }
                      />
                    )}
                    {group === 'input' && (
                      <Button size="small" text severity="danger" label="Remove" aria-label={`Remove ${f.filename}`} onClick={() => onRemove(f)} />
                    )}
                    {returnOf(f).shown && (
                      <span title={returnOf(f).why ?? undefined}>
                        <Button
                          size="small"
                          text
                          label={returnOf(f).label}
                          aria-label={`Return ${f.filename} to the TPA`}
                          disabled={!returnOf(f).enabled}
                          onClick={() => onReturn(f)}
                        />
                      </span>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function FilesTab({ fund, reload }: FundTabProps) {
  const [removing, setRemoving] = useState<FundFile | null>(null);
  const [returning, setReturning] = useState<FundFile | null>(null);
  const chases = useFundChases(fund.id);
  const returnOf = (group: Group) => (f: FundFile) =>
    returnToTpaAction({ fundStatus: fund.status, file: { kind: group, disabled: f.disabled }, openReturnId: chases.openReturnOf(f.id) });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = socketEvents.on('file', (data) => {
      if ((data as { fundRequestId?: number } | null)?.fundRequestId !== fund.id) return;
      clearTimeout(timer);
      timer = setTimeout(reload, 300);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [fund.id, reload]);
  const grid = (title: string, group: Group, files: readonly FundFile[] | undefined) => (
    <FileGrid
      title={title}
      group={group}
      files={files ?? []}
      fundId={fund.id}
      reload={reload}
      onRemove={setRemoving}
      returnOf={returnOf(group)}
      onReturn={setReturning}
    />
  );
  return (
    <div data-testid="fund-files">
      {grid('Input files', 'input', fund.inputFiles)}
      {grid('Standardization files', 'standardization', listedStandardizations(fund.standardizationFiles))}
      {grid('Calculation files', 'calculation', fund.calculationFiles)}
      {grid('Work papers', 'work_paper', fund.workPapers)}
      {fund.previousWorkPapers.map((w) => (
        <p key={w.id} className="fa-empty-text" data-testid="previous-work-paper">
          Previous work paper: {w.filename}, replaced {displayDateTime(w.timestamp)}. Download options (Visualization) include it as
          …_work_papers_previous.xlsx.
        </p>
      ))}
      <div className="fa-fd-toolbar" role="toolbar" aria-label="Work paper release">
        <Button
          label="Release all"
          size="small"
          outlined
          disabled={!fund.workPapers.length}
          onClick={() => void run(() => releaseWorkPapers(fund.id, true), 'Work papers released', reload)}
        />
        <Button
          label="Unrelease all"
          size="small"
          outlined
          disabled={!fund.workPapers.length}
          onClick={() => void run(() => releaseWorkPapers(fund.id, false), 'Work papers unreleased', reload)}
        />
      </div>
      {returning && (
        <ReturnDialog
          target={{ fundId: fund.id, fundName: fund.name, file: { id: returning.id, filename: returning.filename } }}
          onHide={() => setReturning(null)}
          onReturned={(c) => {
            setReturning(null);
            notify({
              severity: 'success',
              detail: `${returning.filename} returned to the TPA (chase ${c.id}): it goes out with the next chase run`,
              life: 4000,
            });
            chases.reload();
          }}
        />
      )}
      <ConfirmDialog
        visible={removing !== null}
        onHide={() => setRemoving(null)}
        header="Remove file"
        message={removing ? `Remove ${removing.filename} and its outputs? The fund is standardized again without it.` : ''}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Remove"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        accept={() => {
          const f = removing;
          setRemoving(null);
          if (f) void run(() => removeFiles([f.id]), `${f.filename} removed`, reload);
        }}
      />
    </div>
  );
}
