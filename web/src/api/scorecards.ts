/** Typed calls of the scorecards page: a TPA or client scorecard, the funds behind a figure, the xlsx export. */
import type { FundFilter, ScorecardKind } from '../../../rules/scorecards';
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';
import { downloadPost } from './download';

/** A scorecard as the API answers it (both kinds answer the same shape). */
export type ScorecardPayload = ApiResponse<'GET /api/v2.0/scorecards/tpa'>;
/** A page of the fund requests behind a figure. */
export type ScorecardFundPage = ApiResponse<'GET /api/v2.0/scorecards/tpa/funds'>;
export type ScorecardFundRow = ScorecardFundPage['rows'][number];

/** What a scorecard is asked for: a TPA's code or a client's name (none: all), and a range of months (YYYY-MM). */
export interface ScorecardQuery {
  key?: string;
  from?: string;
  to?: string;
}

/** A scorecard; errors are shown by the page itself (not notified). */
export function fetchScorecard(kind: ScorecardKind, query: ScorecardQuery, signal?: AbortSignal): Promise<ScorecardPayload> {
  return kind === 'tpa'
    ? call('GET /api/v2.0/scorecards/tpa', { query }, { signal, suppressError: true })
    : call('GET /api/v2.0/scorecards/client', { query }, { signal, suppressError: true });
}

/** The fund requests behind a figure: of one month or the range, a page at a time. */
export function fetchScorecardFunds(
  kind: ScorecardKind,
  query: ScorecardQuery & { month?: string; filter: FundFilter; offset: number; limit: number },
  signal?: AbortSignal,
): Promise<ScorecardFundPage> {
  return kind === 'tpa'
    ? call('GET /api/v2.0/scorecards/tpa/funds', { query }, { signal, suppressError: true })
    : call('GET /api/v2.0/scorecards/client/funds', { query }, { signal, suppressError: true });
}

/** Downloads the scorecard's workbook (the server names it). */
export function downloadScorecard(kind: ScorecardKind, query: ScorecardQuery): Promise<boolean> {
  return downloadPost(`/scorecards/${kind}/export`, query, `scorecard_${kind}.xlsx`);
}
