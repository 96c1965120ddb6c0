/**
 * TPA and client scorecards (docs/scorecards.md): the figures with their monthly trend and the
 * ranking worst first, the fund requests behind a figure, and the xlsx export, per TPA and per
 * client. Any signed-in user; a Client user sees their own client's fund requests only (the
 * service holds them to it). Thin: the work is in `server/services/scorecards/`, done in a
 * request pool.
 */
import type { ScorecardKind } from '../../../rules/scorecards.js';
import type { User } from '../../services/auth/tokens.js';
import { XLSX_MIME } from '../../services/funds/export-listing.js';
import { scorecardFundsOffThread, scorecardOffThread, scorecardWorkbookOffThread } from '../../threads/scorecards/off-thread.js';
import type { Viewer } from '../../services/scorecards/scorecard.js';
import { defineRoute } from '../route.js';
import { scorecardFundPageSchema, scorecardFundsQuerySchema, scorecardQuerySchema, scorecardSchema } from '../schemas/scorecards.js';

const viewer = (user: User): Viewer => ({ role: user.role, client: user.client ?? null });
const WHO: Record<ScorecardKind, string> = { tpa: 'TPA (administrator)', client: 'client' };

function routesOf<K extends ScorecardKind>(kind: K) {
  return [
    defineRoute({
      method: 'GET',
      path: `/scorecards/${kind}` as const,
      group: 'session',
      tag: 'scorecards',
      query: scorecardQuerySchema,
      response: scorecardSchema,
      summary: `Scorecard per ${WHO[kind]} over months of data due dates (from, to: YYYY-MM; default the last 12): requests, on-time rate, mean and 90th-percentile days late, first-time-right rate, re-deliveries per request, chases sent and open, median days from chase to answer; of one ${WHO[kind]} (key) or all, with the monthly trend and every ${WHO[kind]} ranked worst first. A Client user sees their own client's requests only`,
      handler: ({ ctx, user, query }) => scorecardOffThread(ctx, { kind, ...query }, viewer(user)),
    }),
    defineRoute({
      method: 'GET',
      path: `/scorecards/${kind}/funds` as const,
      group: 'session',
      tag: 'scorecards',
      query: scorecardFundsQuerySchema,
      response: scorecardFundPageSchema,
      summary: `The fund requests behind a ${WHO[kind]} scorecard's figure (filter: late, not_first_time_right, redelivered, chased, open_chases ...), of one month or the whole range, newest data due date first, with each request's own figures; a page of at most 500`,
      handler: ({ ctx, user, query }) => scorecardFundsOffThread(ctx, { kind, ...query }, viewer(user)),
    }),
    defineRoute({
      method: 'POST',
      path: `/scorecards/${kind}/export` as const,
      group: 'session',
      tag: 'scorecards',
      raw: true,
      body: scorecardQuerySchema,
      summary: `The ${WHO[kind]} scorecard as an xlsx workbook: the figures with what each is counted over, the monthly trend, the ranking and every fund request behind them`,
      handler: async ({ ctx, user, body }) => {
        const file = await scorecardWorkbookOffThread(ctx, { kind, ...body }, viewer(user));
        return new Response(new Uint8Array(file.bytes), {
          headers: { 'content-type': XLSX_MIME, 'content-disposition': `attachment; filename="${file.fileName}"` },
        });
      },
    }),
  ] as const;
}

export const scorecardRoutes = [...routesOf('tpa'), ...routesOf('client')];
