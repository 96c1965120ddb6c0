/** The Processes tab: the fund's pipeline jobs, newest first, with reset (requeue with force run) and cancel, offered only on pending and running processes (rules module); live through the socket. */
import { useCallback } from 'react';
import { Button } from 'primereact/button';
import { canCancelProcess, canResetProcess, displayDateTime } from '../../../../../rules';
import { fetchProcesses, processAction, type ProcessRow } from '../../../api/fund-activity';
import { ApiError } from '../../../api/errors';
import { StatusTag } from '../../../components/files/status-tag';
import { notify } from '../../../state/notifications';
import { LogTable } from './activity/log-table';
import { useFundLog } from './activity/use-page';
import type { FundTabProps } from './tab-props';

const LIVE = ['process'] as const;

export function ProcessesTab({ fund, reload: reloadFund }: FundTabProps) {
  const fetch = useCallback(() => fetchProcesses(fund.id), [fund.id, fund]);
  const { rows, error, reload } = useFundLog<ProcessRow>(fetch, LIVE);
  const act = async (action: 'reset' | 'cancel', p: ProcessRow) => {
    try {
      await processAction(action, p.id);
      notify({ severity: 'success', detail: `${p.stage} ${action === 'reset' ? 'queued again' : 'cancelled'}`, life: 2400 });
    } catch (err) {
      notify({ severity: 'error', summary: `Could not ${action} the process`, detail: (err as ApiError).message });
    }
    reload();
    reloadFund();
  };
  return (
    <LogTable
      label="Processes"
      rows={rows}
      error={error}
      onRetry={reload}
      empty="No processes"
      columns={[
        { header: 'Stage', cell: (p) => p.stage },
        { header: 'Status', cell: (p) => <StatusTag status={p.status} /> },
        { header: 'Queued', cell: (p) => displayDateTime(p.process_at) },
        { header: 'Finished', cell: (p) => displayDateTime(p.finished_at) },
        { header: 'Attempts', cell: (p) => p.attempts },
        {
          header: 'Actions',
          cell: (p) => (
            <span className="fa-fd-actions">
              <Button
                label="Reset"
                size="small"
                text
                aria-label={`Reset ${p.stage} process ${p.id}`}
                disabled={!canResetProcess(p.status)}
                onClick={() => void act('reset', p)}
              />
              <Button
                label="Cancel"
                size="small"
                text
                severity="danger"
                aria-label={`Cancel ${p.stage} process ${p.id}`}
                disabled={!canCancelProcess(p.status)}
                onClick={() => void act('cancel', p)}
              />
            </span>
          ),
        },
      ]}
    />
  );
}
