/**
 * Status Reporting tab (auditor spec 2.3): active/total count, 'New request', and the Late and On
 * time donuts, each with Clients and TPA tabs, a top-5 legend with 'Other' and 'View full list'.
 * Reloads when fund requests change (socket 'fund-request' events, bulk upload).
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Tooltip } from 'primereact/tooltip';
import { useSnapshot } from 'valtio';
import { fetchStatusReport } from '../../../api/auditor';
import { ApiError } from '../../../api/errors';
import type { FundGroup, StatusReport } from '../../../api/auditor-types';
import { useSocketRefresh } from '../../../components/auditor/use-socket-refresh';
import { dataPlatform, showTab } from '../../../state/data-platform';
import { FundListDialog } from './fund-list-dialog';
import { ACTIVE_TOOLTIP, LATE_TOOLTIP, ON_TIME_TOOLTIP, SLICE_COLORS, topWithOther } from './status-data';

const StatusDonutChart = lazy(() => import('./status-donut-chart'));

type Breakdown = 'clients' | 'administrators';

/** One donut card: title with tooltip, Clients/TPA switch, donut, legend and 'View full list'. */
function DonutCard({ id, title, tooltip, group }: { id: string; title: string; tooltip: string; group: FundGroup }) {
  const [by, setBy] = useState<Breakdown>('clients');
  const [listOpen, setListOpen] = useState(false);
  const legend = topWithOther(by === 'clients' ? group.clients : group.administrators);
  const colors = legend.map((e, i) => (e.name === 'Other' ? SLICE_COLORS[SLICE_COLORS.length - 1] : SLICE_COLORS[i % (SLICE_COLORS.length - 1)]));
  const headingId = `fa-donut-${id}`;
  return (
    <section className="fa-aud-card fa-donut-card" aria-labelledby={headingId} data-testid={`donut-${id}`}>
      <h3 id={headingId}>
        {title}
        <i className={`pi pi-info-circle fa-muted fa-tip-${id}`} data-pr-tooltip={tooltip} aria-label={tooltip} role="img" />
      </h3>
      <Tooltip target={`.fa-tip-${id}`} position="top" />
      <div className="fa-subtabs" role="tablist" aria-label={`${title} by`}>
        {(['clients', 'administrators'] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={by === k} onClick={() => setBy(k)}>
            {k === 'clients' ? 'Clients' : 'TPA'}
          </button>
        ))}
      </div>
      <div className="fa-donut-body" role="tabpanel">
        <div className="fa-donut-canvas">
          <Suspense fallback={<div className="fa-muted">Loading chart...</div>}>
            <StatusDonutChart
              labels={legend.map((e) => e.name)}
              values={legend.map((e) => e.count)}
              colors={colors}
              label={`${title} by ${by === 'clients' ? 'client' : 'TPA'}`}
            />
          </Suspense>
          <div className="fa-donut-center" aria-hidden="true">
            <strong>{group.count}</strong>
            <span className="fa-muted">funds</span>
          </div>
        </div>
        {legend.length === 0 ? (
          <p className="fa-empty-text">No data</p>
        ) : (
          <ul className="fa-legend" aria-label={`${title} legend`}>
            {legend.map((e, i) => (
              <li key={e.name}>
                <span className="fa-swatch" style={{ background: colors[i] }} aria-hidden="true" />
                <span className="fa-legend-name" title={e.name}>
                  {e.name}
                </span>
                <strong>{e.count}</strong>
              </li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="fa-linkbutton" onClick={() => setListOpen(true)} disabled={group.count === 0}>
        View full list
      </button>
      <FundListDialog title={title} funds={group.funds} visible={listOpen} onHide={() => setListOpen(false)} />
    </section>
  );
}

/** The Status Reporting tab. */
export function StatusReporting() {
  const { fundsVersion } = useSnapshot(dataPlatform);
  const [report, setReport] = useState<StatusReport | null>(null);
  // why the report could not be loaded (shown once, here; true: no reason given)
  const [failed, setFailed] = useState<string | boolean>(false);

  const load = useCallback(() => {
    fetchStatusReport()
      .then((r) => {
        setReport(r);
        setFailed(false);
      })
      .catch((err: unknown) => setFailed(err instanceof ApiError && err.message ? err.message : true));
  }, []);

  useEffect(load, [load, fundsVersion]);
  useSocketRefresh(['fund-request'], load, 800);

  if (!report) {
    return failed ? (
      <div className="fa-error-banner" role="alert">
        The status report could not be loaded{typeof failed === 'string' ? `: ${failed}` : ''}.{' '}
        <button type="button" className="fa-linkbutton" onClick={load}>
          Try again
        </button>
      </div>
    ) : (
      <p className="fa-muted" role="status">
        Loading status report...
      </p>
    );
  }
  return (
    <div data-testid="status-reporting">
      <div className="fa-aud-toolbar">
        <div className="fa-count fa-grow" data-testid="active-count">
          <strong>{report.activeFunds.count}</strong>
          <span>/ {report.totalFunds.count} active fund requests</span>
          <i className="pi pi-info-circle fa-muted fa-tip-active" data-pr-tooltip={ACTIVE_TOOLTIP} aria-label={ACTIVE_TOOLTIP} role="img" />
          <Tooltip target=".fa-tip-active" position="top" />
        </div>
        <Button label="New request" icon="pi pi-plus" onClick={() => showTab('bulk')} />
      </div>
      <div className="fa-donuts">
        <DonutCard id="late" title="Late funds" tooltip={LATE_TOOLTIP} group={report.lateFunds} />
        <DonutCard id="on-time" title="On time funds" tooltip={ON_TIME_TOOLTIP} group={report.onTimeFunds} />
      </div>
    </div>
  );
}
