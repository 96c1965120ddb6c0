/** The Trail tab: the fund's immutable trail, newest first (user, date, action, before and after). */
import { useCallback } from 'react';
import { fetchTrail, type TrailRow } from '../../../api/fund-activity';
import { LogTable } from './activity/log-table';
import { useFundLog } from './activity/use-page';
import type { FundTabProps } from './tab-props';
import { displayDateTime } from '../../../../../rules';

const LIVE = ['file', 'process'] as const;

/** A value of the trail as short JSON. */
export const trailValue = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

export function TrailTab({ fund }: FundTabProps) {
  const fetch = useCallback(() => fetchTrail(fund.id), [fund.id, fund]);
  const { rows, error, reload } = useFundLog<TrailRow>(fetch, LIVE);
  return (
    <LogTable
      label="Trail"
      rows={rows}
      error={error}
      onRetry={reload}
      empty="No trail entries"
      columns={[
        { header: 'Date', cell: (r) => displayDateTime(r.date) },
        { header: 'User', cell: (r) => r.user ?? 'System' },
        { header: 'Action', cell: (r) => r.action },
        { header: 'Before', cell: (r) => <code className="fa-json-cell">{trailValue(r.before)}</code> },
        { header: 'After', cell: (r) => <code className="fa-json-cell">{trailValue(r.after)}</code> },
      ]}
    />
  );
}
