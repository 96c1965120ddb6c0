/** The Logs tab: user trail, orchestration logs and processes, each in its own sub-tab. */
import { useCallback } from 'react';
import { TabPanel, TabView } from 'primereact/tabview';
import { fetchOrchestration, type LogRow } from '../../../api/fund-activity';
import { StatusTag } from '../../../components/files/status-tag';
import { LogTable } from './activity/log-table';
import { useFundLog } from './activity/use-page';
import { ProcessesTab } from './processes-tab';
import type { FundTabProps } from './tab-props';
import { TrailTab } from './trail-tab';
import { displayDateTime } from '../../../../../rules';

const LIVE = ['file', 'process'] as const;

function OrchestrationLog({ fund }: FundTabProps) {
  const fetch = useCallback(() => fetchOrchestration(fund.id), [fund.id, fund]);
  const { rows, error, reload } = useFundLog<LogRow>(fetch, LIVE);
  return (
    <LogTable
      label="Orchestration logs"
      rows={rows}
      error={error}
      onRetry={reload}
      empty="No orchestration logs"
      columns={[
        { header: 'Date', cell: (r) => displayDateTime(r.created_at) },
        { header: 'Stage', cell: (r) => r.stage },
        { header: 'Status', cell: (r) => <StatusTag status={r.status} /> },
        { header: 'Type', cell: (r) => [r.type, r.sub_type].filter(Boolean).join(' / ') },
      ]}
    />
  );
}

export function LogsTab(props: FundTabProps) {
  return (
    <TabView className="fa-fd-subtabs">
      <TabPanel header="User trail">
        <TrailTab {...props} />
      </TabPanel>
      <TabPanel header="Orchestration logs">
        <OrchestrationLog {...props} />
      </TabPanel>
      <TabPanel header="Processes">
        <ProcessesTab {...props} />
      </TabPanel>
    </TabView>
  );
}
