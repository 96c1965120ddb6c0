/**
 * The backend of `fund-audit scorecard`: scorecards, the funds behind a figure and the xlsx export,
 * through the API (cli/operation.ts): in process on the local install as its first Admin (every
 * client), or on a server as the token's user (a Client's token sees its own client only).
 */
import type { ScorecardFundPage, ScorecardFundsInput } from '../../server/services/scorecards/funds.js';
import type { Scorecard, ScorecardInput } from '../../server/services/scorecards/scorecard.js';
import type { GlobalOptions } from '../global.js';
import { operation, withApi } from '../operation.js';

export interface ScorecardsBackend {
  card(input: ScorecardInput): Promise<Scorecard>;
  funds(input: ScorecardFundsInput): Promise<ScorecardFundPage>;
  /** The workbook's bytes and file name. */
  workbook(input: ScorecardInput): Promise<{ bytes: Buffer; fileName: string }>;
}

const query = ({ key, from, to }: ScorecardInput) => ({ key, from, to });

/** The backend of the global options: the API, on the server with `--server`, else in process on the local install. */
export function scorecardsBackend(g: GlobalOptions): ScorecardsBackend {
  return {
    card: async (input) =>
      (await operation(g, input.kind === 'tpa' ? 'GET /api/v2.0/scorecards/tpa' : 'GET /api/v2.0/scorecards/client', {
        query: query(input),
      })) as Scorecard,
    funds: async (input) =>
      (await operation(g, input.kind === 'tpa' ? 'GET /api/v2.0/scorecards/tpa/funds' : 'GET /api/v2.0/scorecards/client/funds', {
        query: { ...query(input), month: input.month, filter: input.filter, offset: input.offset, limit: input.limit },
      })) as ScorecardFundPage,
    workbook: (input) =>
      withApi(g, async (api) => {
        const { res, fileName } = await api.file(input.kind === 'tpa' ? 'POST /api/v2.0/scorecards/tpa/export' : 'POST /api/v2.0/scorecards/client/export', {
          body: query(input),
        });
        return { bytes: Buffer.from(await res.arrayBuffer()), fileName: fileName ?? `scorecard_${input.kind}.xlsx` };
      }),
  };
}
