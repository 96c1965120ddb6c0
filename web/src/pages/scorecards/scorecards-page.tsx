/**
 * Scorecards (/scorecards, in the auditor area and the delivery portal; docs/scorecards.md): per TPA
 * or per client, over a range of months of data due dates, the figures (requests, on-time rate, days
 * late, first-time-right rate, re-deliveries, chases), a monthly trend chart per measure, and every
 * TPA or client ranked worst first. Each figure, a month's point of a trend and a row of the ranking
 * lead to the fund requests behind it. A Client user sees their own client's requests only (the
 * server holds them to it). The choice is in the address (`?kind=tpa&key=<code>&from=&to=`).
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { SelectButton } from 'primereact/selectbutton';
import { useSnapshot } from 'valtio';
import { useSearch } from 'wouter';
import { countedOver, formatFigure, MEASURES, type ScorecardKind } from '../../../../rules/scorecards';
import type { ApiError } from '../../api/errors';
import { downloadScorecard, fetchScorecard, type ScorecardPayload, type ScorecardQuery } from '../../api/scorecards';
import { usePageTitle } from '../../components/use-page-title';
import { frameForRole } from '../../route-table';
import { navigate } from '../../state/navigation';
import { session } from '../../state/session';
import { RankingTable } from './ranking-table';
import { type DrillDown, ScorecardFundsDialog } from './scorecard-funds-dialog';
import './scorecards.css';

const TrendChart = lazy(() => import('./trend-chart'));

const KIND_OPTIONS = [
  { label: 'TPAs', value: 'tpa' },
  { label: 'Clients', value: 'client' },
];
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** The dropdown's value for every TPA or client (an empty value would show as no choice). */
const ALL = '*';
/** One colour per measure, in the order of MEASURES. */
const COLORS = ['#1d4ed8', '#15803d', '#b45309', '#b91c1c', '#7c3aed', '#0e7490', '#be185d', '#4d7c0f', '#334155'];

/** The scorecard asked for in the address. */
function queryOf(search: string): { kind: ScorecardKind; query: ScorecardQuery } {
  const p = new URLSearchParams(search);
  const month = (name: string) => {
    const v = p.get(name);
    return v && MONTH.test(v) ? v : undefined;
  };
  return { kind: p.get('kind') === 'client' ? 'client' : 'tpa', query: { key: p.get('key') || undefined, from: month('from'), to: month('to') } };
}

function addressOf(kind: ScorecardKind, q: ScorecardQuery): string {
  const p = new URLSearchParams({ kind });
  if (q.key) p.set('key', q.key);
  if (q.from) p.set('from', q.from);
  if (q.to) p.set('to', q.to);
  return `/scorecards?${p}`;
}

export function ScorecardsPage() {
  usePageTitle('Scorecards');
  const search = useSearch();
  const { kind, query } = queryOf(search);
  const { key, from, to } = query;
  const { user } = useSnapshot(session);
  const [card, setCard] = useState<ScorecardPayload | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [drill, setDrill] = useState<DrillDown | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    fetchScorecard(kind, { key, from, to }, abort.signal).then(
      (c) => (setCard(c), setError(null), setLoading(false)),
      (err: ApiError) => {
        if (abort.signal.aborted) return;
        setError(err.message);
        setLoading(false);
      },
    );
    return () => abort.abort();
  }, [kind, key, from, to, attempt]);

  const show = useCallback((next: ScorecardKind, q: ScorecardQuery) => navigate(addressOf(next, q), { replace: true }), []);
  // the range shown: the one asked for, or the one the server chose (the last 12 months)
  const range = { from: from ?? card?.from, to: to ?? card?.to };
  const shownQuery: ScorecardQuery = { key, ...range };
  const who = kind === 'tpa' ? 'TPA' : 'client';
  const groups = card?.kind === kind ? card.ranking : [];
  const options = [{ label: kind === 'tpa' ? 'All TPAs' : 'All clients', value: ALL }, ...groups.map((g) => ({ label: g.name, value: g.key || g.name }))];
  if (key && !options.some((o) => o.value.toLowerCase() === key.toLowerCase())) options.push({ label: card?.group?.name ?? key, value: key });
  const current = card && card.kind === kind ? card : null;
  const empty = current !== null && current.figures.requests === 0;

  return (
    <section className="fa-page fa-scorecards" aria-labelledby="fa-scorecards-title" aria-busy={loading}>
      <h1 id="fa-scorecards-title">Scorecards</h1>
      <p className="fa-scorecards-intro">
        How each TPA and client delivers, month by month of data due dates: on time, first time right, re-delivered, chased. Every figure is counted from what
        happened (files received, checks run, chases sent and answered); choose a figure, a month or a row to see the fund requests behind it.
      </p>
      <div className="fa-scorecards-controls" role="group" aria-label="Which scorecard">
        <SelectButton
          value={kind}
          options={KIND_OPTIONS}
          allowEmpty={false}
          onChange={(e) => e.value && show(e.value as ScorecardKind, { from, to })}
          aria-label="Scorecards per"
        />
        <label className="fa-scorecards-field">
          <span>{kind === 'tpa' ? 'TPA' : 'Client'}</span>
          <Dropdown
            value={key ?? ALL}
            options={options}
            onChange={(e) => show(kind, { key: e.value === ALL ? undefined : (e.value as string) || undefined, from, to })}
            filter={options.length > 10}
            aria-label={kind === 'tpa' ? 'TPA' : 'Client'}
            className="fa-scorecards-key"
          />
        </label>
        <label className="fa-scorecards-field">
          <span>From</span>
          <input
            type="month"
            className="p-inputtext"
            aria-label="From month"
            value={range.from ?? ''}
            max={range.to}
            onChange={(e) => MONTH.test(e.target.value) && show(kind, { key, from: e.target.value, to: range.to })}
          />
        </label>
        <label className="fa-scorecards-field">
          <span>To</span>
          <input
            type="month"
            className="p-inputtext"
            aria-label="To month"
            value={range.to ?? ''}
            min={range.from}
            onChange={(e) => MONTH.test(e.target.value) && show(kind, { key, from: range.from, to: e.target.value })}
          />
        </label>
        <Button
          label="Export xlsx"
          icon="pi pi-file-excel"
          outlined
          size="small"
          disabled={!current}
          onClick={() => void downloadScorecard(kind, shownQuery)}
          className="fa-scorecards-export"
        />
      </div>
      {current?.scope.client && (
        <p className="fa-scorecards-scope" data-testid="scorecard-scope">
          <i className="pi pi-lock" aria-hidden="true" /> Figures of the fund requests of {current.scope.client} only.
        </p>
      )}
      {error ? (
        <div className="fa-error-banner" role="alert">
          The scorecard could not be loaded: {error} <Button label="Try again" text size="small" onClick={() => setAttempt((n) => n + 1)} />
        </div>
      ) : !current ? (
        <p className="fa-empty-text" role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Loading the scorecard...
        </p>
      ) : current.scope.unlinked ? (
        <div className="fa-scorecards-empty" data-testid="scorecard-empty">
          <i className="pi pi-info-circle" aria-hidden="true" />
          <p>Your user is not linked to a client yet, so there are no figures to show. Ask the delivery team to link it.</p>
        </div>
      ) : empty ? (
        <div className="fa-scorecards-empty" data-testid="scorecard-empty">
          <i className="pi pi-chart-line" aria-hidden="true" />
          <p>
            <strong>
              No fund requests {current.group ? `of ${current.group.name} ` : ''}have a data due date from {current.from} to {current.to}.
            </strong>{' '}
            Choose a longer range or another {who}: figures appear once requests fall due.
          </p>
        </div>
      ) : (
        <>
          <h2 className="fa-scorecards-heading">
            {current.group ? current.group.name : kind === 'tpa' ? 'All TPAs' : 'All clients'} · {current.from} to {current.to}
            {loading && <i className="pi pi-spin pi-spinner fa-muted" aria-label="Updating" />}
          </h2>
          <ul className="fa-scorecard-figures" aria-label="Figures">
            {MEASURES.map((m) => {
              const value = current.figures[m.key];
              const over = countedOver(current.figures, m.key);
              return (
                <li key={m.key} className="fa-scorecard-figure" data-measure={m.key}>
                  <span className="fa-scorecard-figure-label" title={m.help}>
                    {m.label}
                  </span>
                  <strong className="fa-scorecard-figure-value">{formatFigure(value, m.unit)}</strong>
                  <span className="fa-muted fa-scorecard-figure-over">{over || m.help}</span>
                  <button
                    type="button"
                    className="fa-linkbutton"
                    onClick={() => setDrill({ filter: m.drillDown, measure: m.label })}
                    aria-label={`Fund requests behind ${m.label.toLowerCase()}`}
                  >
                    Show the requests
                  </button>
                </li>
              );
            })}
          </ul>
          <h2 className="fa-scorecards-heading">Monthly trend</h2>
          <ul className="fa-scorecard-trends" aria-label="Monthly trend per measure">
            {MEASURES.map((m, i) => (
              <li key={m.key} className="fa-scorecard-trend" data-measure={m.key}>
                <span className="fa-scorecard-figure-label">{m.label}</span>
                <div className="fa-scorecard-trend-canvas">
                  <Suspense fallback={<div className="fa-muted">Loading chart...</div>}>
                    <TrendChart
                      months={current.months.map((x) => x.month)}
                      values={current.months.map((x) => x.figures[m.key])}
                      format={(v) => formatFigure(v, m.unit)}
                      label={`${m.label} per month`}
                      color={COLORS[i % COLORS.length]!}
                      onMonth={(month) => setDrill({ filter: m.drillDown, month, measure: m.label })}
                    />
                  </Suspense>
                </div>
              </li>
            ))}
          </ul>
          <h2 className="fa-scorecards-heading">Ranking, worst first</h2>
          <RankingTable
            kind={kind}
            rows={current.ranking}
            selected={current.group?.key ?? current.group?.name ?? null}
            onSelect={(k) => show(kind, { key: k || undefined, from, to })}
          />
        </>
      )}
      <ScorecardFundsDialog kind={kind} query={shownQuery} drill={drill} linkFunds={frameForRole(user?.role) === 'delivery'} onHide={() => setDrill(null)} />
    </section>
  );
}
