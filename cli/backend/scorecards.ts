/**
 * The backend of `fund-audit scorecard`: scorecards, the funds behind a figure and the xlsx export,
 * on the local install (services in process, as the first Admin: every client) or on a server
 * (the API, as the token's user: a Client's token sees its own client only).
 */
import { scorecardFunds, type ScorecardFundPage, type ScorecardFundsInput } from '../../server/services/scorecards/funds.js';
import { scorecard, type Scorecard, type ScorecardInput } from '../../server/services/scorecards/scorecard.js';
import { scorecardWorkbook } from '../../server/services/scorecards/xlsx.js';
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { downloadPost } from './download.js';
import { asSent, withLocal } from './local.js';

export interface ScorecardsBackend {
  card(input: ScorecardInput): Promise<Scorecard>;
  funds(input: ScorecardFundsInput): Promise<ScorecardFundPage>;
  /** The workbook's bytes and file name. */
  workbook(input: ScorecardInput): Promise<{ bytes: Buffer; fileName: string }>;
}

const query = ({ key, from, to }: ScorecardInput) => ({ key, from, to });

/** The backend of the global options: the server's API with `--server`, else the local install. */
export function scorecardsBackend(g: GlobalOptions): ScorecardsBackend {
  if (isRemote(g)) {
    return {
      card: async (input) =>
        (await remoteOperation(g, input.kind === 'tpa' ? 'GET /api/v2.0/scorecards/tpa' : 'GET /api/v2.0/scorecards/client', {
          query: query(input),
        })) as Scorecard,
      funds: async (input) =>
        (await remoteOperation(g, input.kind === 'tpa' ? 'GET /api/v2.0/scorecards/tpa/funds' : 'GET /api/v2.0/scorecards/client/funds', {
          query: { ...query(input), month: input.month, filter: input.filter, offset: input.offset, limit: input.limit },
        })) as ScorecardFundPage,
      workbook: async (input) => {
        const { bytes, fileName } = await downloadPost(g, `scorecards/${input.kind}/export`, query(input));
        return { bytes, fileName: fileName ?? `scorecard_${input.kind}.xlsx` };
      },
    };
  }
  return {
    card: (input) => withLocal(g, async (ctx, user) => asSent(await scorecard(ctx, input, user))),
    funds: (input) => withLocal(g, async (ctx, user) => asSent(await scorecardFunds(ctx, input, user))),
    workbook: (input) => withLocal(g, (ctx, user) => scorecardWorkbook(ctx, input, user)),
  };
}
