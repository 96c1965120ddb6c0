/**
 * The drill-down of a scorecard figure: the fund requests it counts (of one month or the whole
 * range), a page of 50 at a time, each with its own figures. In the delivery portal a fund's name
 * opens its Fund details.
 */
import { useEffect, useState } from 'react';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { Link } from 'wouter';
import { FUND_FILTER_LABELS, type FundFilter, type ScorecardKind } from '../../../../rules/scorecards';
import type { ApiError } from '../../api/errors';
import { fetchScorecardFunds, type ScorecardFundPage, type ScorecardFundRow, type ScorecardQuery } from '../../api/scorecards';
import { displayDate } from '../../../../rules';

const PAGE = 50;

/** What the drill-down lists: a figure's filter, of a month or the whole range. */
export interface DrillDown {
  filter: FundFilter;
  month?: string;
  /** the figure's label, for the title */
  measure: string;
}

const yesNo = (v: boolean | null, yes: string, no: string) => (v === null ? '—' : v ? yes : no);

export function ScorecardFundsDialog({
  kind,
  query,
  drill,
  linkFunds,
  onHide,
}: {
  kind: ScorecardKind;
  query: ScorecardQuery;
  drill: DrillDown | null;
  /** whether a fund's name links to its Fund details (delivery portal) */
  linkFunds: boolean;
  onHide: () => void;
}) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<ScorecardFundPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const { key, from, to } = query;

  useEffect(() => setOffset(0), [drill]);
  useEffect(() => {
    if (!drill) return;
    const abort = new AbortController();
    setLoading(true);
    fetchScorecardFunds(kind, { key, from, to, month: drill.month, filter: drill.filter, offset, limit: PAGE }, abort.signal).then(
      (p) => (setPage(p), setError(null), setLoading(false)),
      (err: ApiError) => {
        if (abort.signal.aborted) return;
        setError(err.message);
        setLoading(false);
      },
    );
    return () => abort.abort();
  }, [kind, key, from, to, drill, offset]);

  const title = drill ? `${FUND_FILTER_LABELS[drill.filter]}${drill.month ? ` · ${drill.month}` : ` · ${from} to ${to}`}` : '';
  const name = (r: ScorecardFundRow) =>
    linkFunds ? (
      <Link href={`/fund/${r.id}`} onClick={onHide}>
        {r.name}
      </Link>
    ) : (
      r.name
    );
  return (
    <Dialog header={title} visible={drill !== null} onHide={onHide} style={{ width: 'min(72rem, 96vw)' }} modal dismissableMask className="fa-scorecard-funds">
      {drill && <p className="fa-muted fa-scorecard-funds-intro">The fund requests behind {drill.measure.toLowerCase()}, newest data due date first.</p>}
      {error ? (
        <div className="fa-error-banner" role="alert">
          {error}
        </div>
      ) : (
        <DataTable
          value={page?.rows ?? []}
          dataKey="id"
          lazy
          paginator
          rows={PAGE}
          first={offset}
          totalRecords={page?.pagination.count ?? 0}
          onPage={(e) => setOffset(e.first)}
          loading={loading}
          size="small"
          stripedRows
          emptyMessage="No fund requests"
          aria-label="Fund requests behind the figure"
        >
          <Column header="Fund code" field="fundCode" body={(r: ScorecardFundRow) => r.fundCode ?? '—'} />
          <Column header="Fund" body={name} />
          <Column header={kind === 'tpa' ? 'Client' : 'TPA'} body={(r: ScorecardFundRow) => (kind === 'tpa' ? r.client : (r.administrator ?? '—'))} />
          <Column header="Data due" body={(r: ScorecardFundRow) => displayDate(r.dueDate)} />
          <Column header="All files received" body={(r: ScorecardFundRow) => (r.completedAt ? displayDate(r.completedAt) : 'Not yet')} />
          <Column header="On time" body={(r: ScorecardFundRow) => yesNo(r.onTime, 'On time', 'Late')} />
          <Column header="Days late" body={(r: ScorecardFundRow) => r.daysLate ?? '—'} align="right" />
          <Column header="First time right" body={(r: ScorecardFundRow) => yesNo(r.firstTimeRight, 'Yes', 'No')} />
          <Column header="Re-deliveries" field="reDeliveries" align="right" />
          <Column header="Chases sent" field="chasesSent" align="right" />
          <Column header="Open" field="chasesOpen" align="right" />
        </DataTable>
      )}
    </Dialog>
  );
}
