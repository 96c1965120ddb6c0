/** The Errors tab: log entries in error, or successful with warnings, with their message (each text once) and a raw payload viewer. */
import { useCallback, useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { joinMessages, displayDateTime } from '../../../../../rules';
import { fetchErrorLogs, type ErrorLogRow } from '../../../api/fund-activity';
import { StatusTag } from '../../../components/files/status-tag';
import { LogTable } from './activity/log-table';
import { useFundLog } from './activity/use-page';
import type { FundTabProps } from './tab-props';

const LIVE = ['file', 'process'] as const;

export function ErrorsTab({ fund }: FundTabProps) {
  const fetch = useCallback(() => fetchErrorLogs(fund.id), [fund.id, fund]);
  const { rows, error, reload } = useFundLog<ErrorLogRow>(fetch, LIVE);
  const [payload, setPayload] = useState<ErrorLogRow | null>(null);
  return (
    <>
      <LogTable
        label="Errors"
        rows={rows}
        error={error}
        onRetry={reload}
        empty="No errors"
        columns={[
          { header: 'Date', cell: (r) => displayDateTime(r.created_at) },
          { header: 'Stage', cell: (r) => r.stage },
          { header: 'Status', cell: (r) => <StatusTag status={r.status} /> },
          { header: 'Message', cell: (r) => joinMessages([r.message, ...r.warnings]) },
          {
            header: 'Payload',
            cell: (r) => <Button label="View payload" size="small" text aria-label={`Payload of entry ${r.id}`} onClick={() => setPayload(r)} />,
          },
        ]}
      />
      <Dialog header="Raw payload" visible={payload !== null} onHide={() => setPayload(null)} style={{ width: 'min(800px, 95vw)' }}>
        <pre className="fa-json-view">{payload ? JSON.stringify(payload.payload, null, 2) : ''}</pre>
      </Dialog>
    </>
  );
}
