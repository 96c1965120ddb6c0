/**
 * Price testing (DOMAIN.md 2.4 item 4), only when the fund has external valuations (`ctx.
 * externalValuations`). Per holding, in fund currency (impact = TPA value - independent value):
 * TPA price vs an independent price: the latest PriceRow of the same security id dated on or
 * before the period end from a source that is not the TPA's own (see `tpaOwnSources`), in the
 * same price currency when both give one. Impact = quantity x (TPA price - independent price)
 * / q / TPA fx rate, q = 100 for prices per 100 of nominal (`priceFactor`), 1 per unit; the TPA's
 * rate is the holding's fx_rate, else implied by its local and base values (1 in the fund
 * currency). The rates themselves are tested by FX testing (`fx-testing.ts`), not here.
 * Every price used is reported with its date and source (`price-evidence.ts`).
 * Holdings with |impact| > TE amount are flagged, one fail item each (file + line). A summary
 * item compares the net total impact with PM: fail above PM, warning above SAD, pass otherwise
 * (gross total and the 25 largest impacts in details).
 * Not performed (one item, a warning with `notPerformed` giving the reason, never a pass):
 * external valuations off, no holdings, or no independent price at all. Holdings are read in one
 * pass (plus one to find the TPA's own price sources); only totals, the 25 largest impacts and the
 * flagged items (limited as they come) are kept.
 */
import type { FundSdmData, HoldingRow, PriceRow, QaRec } from '../sdm/rows.js';
import {
  DEFAULT_MAX_ITEMS_PER_CHECK,
  fmt,
  ItemLimit,
  localValue,
  priceFactor,
  round,
  runPass,
  sourceOf,
  statusFor,
  Sum,
  type CheckContext,
  type HoldingsPass,
} from './common.js';
import { evidenceLookup } from './price-evidence.js';
import type { LargestImpact, PriceTestingSummary } from './price-testing-types.js';

export type { LargestImpact, PriceTestingSummary } from './price-testing-types.js';

export const PRICE_TESTING = 'price_testing';

export { tpaOwnSources } from './price-own-sources.js';

/** A tested holding's impact (fund currency) and the price used. */
interface Impact {
  h: HoldingRow;
  tpaFx: number;
  impact: number;
  independentPrice: PriceRow;
}

/** The `n` largest impacts by absolute value (ties: the earlier holding first), kept as they come. */
class Largest {
  readonly list: Impact[] = [];
  constructor(private readonly n: number) {}
  add(x: Impact): void {
    const a = Math.abs(x.impact);
    const list = this.list;
    if (list.length === this.n && a <= Math.abs(list[list.length - 1].impact)) return;
    let i = list.length;
    while (i > 0 && Math.abs(list[i - 1].impact) < a) i--;
    list.splice(i, 0, x);
    if (list.length > this.n) list.pop();
  }
}

/** Price testing as a holdings pass (see the module's description); prices are read when it is made. */
export async function priceTestingPass(data: FundSdmData, ctx: CheckContext): Promise<HoldingsPass> {
  const { pm, te, sad } = ctx.materiality;
  const base = { check: PRICE_TESTING, name: 'Price testing' };
  const notPerformed = (reason: string): HoldingsPass => ({
    add: () => {},
    finish: () => [
      { ...base, status: 'warning', diff: 0, threshold: null, message: `Not performed: ${reason}`, notPerformed: reason, details: { performed: false } },
    ],
  });
  if (!ctx.externalValuations) return notPerformed('the fund has no external valuations (external_valuations = N)');
  const evidence = await evidenceLookup(data, ctx);
  const { own, independent } = evidence;

  // one pass over the holdings: flagged items, totals and the largest impacts, nothing per holding kept
  const items = new ItemLimit(PRICE_TESTING, Math.max(2, ctx.maxItemsPerCheck ?? DEFAULT_MAX_ITEMS_PER_CHECK) - 1);
  const largestImpacts = new Largest(25);
  const net = new Sum();
  const grossSum = new Sum();
  let holdings = 0;
  let tested = 0;
  let noPrice = 0;
  let noRate = 0;
  let flagged = 0;
  const add = (h: HoldingRow): void => {
    holdings++;
    const ev = evidence.of(h);
    const ip = ev.price;
    if (!ip) {
      noPrice++;
      return;
    }
    const local = localValue(h);
    const tpaFx = ev.foreign ? (h.fx_rate ?? (local !== null && h.market_value_base ? local / h.market_value_base : null)) : 1;
    if (!tpaFx) {
      noRate++;
      return;
    }
    const x: Impact = { h, tpaFx, impact: (h.quantity * (h.price - ip.price)) / priceFactor(h) / tpaFx, independentPrice: ip };
    tested++;
    net.add(x.impact);
    grossSum.add(Math.abs(x.impact));
    largestImpacts.add(x);
    if (Math.abs(x.impact) <= te) return;
    flagged++;
    items.offer('fail', () => ({
      check: PRICE_TESTING,
      name: h.security_id,
      status: 'fail',
      diff: round(x.impact),
      threshold: te,
      ...sourceOf(h),
      message: `${h.security_name}: value impact ${fmt(x.impact)} ${ctx.currency} above TE ${fmt(te)} (price ${h.price} vs ${ip.price} (${ip.price_source} ${ip.price_date}))`,
      details: {
        quantity: h.quantity,
        tpaPrice: h.price,
        independentPrice: ip.price,
        priceSource: ip.price_source,
        priceDate: ip.price_date,
        currency: h.price_currency,
        tpaFx: x.tpaFx,
      },
    }));
  };
  const finish = (): QaRec[] => {
    if (!holdings) return notPerformed('no holdings delivered').finish();
    if (!independent.size) {
      return notPerformed(`no independent prices (price sources ${[...own].join(', ') || 'none'} are the TPA's own)`).finish();
    }
    const netTotal = round(net.value);
    const gross = round(grossSum.value);
    const status = statusFor(netTotal, sad, pm);
    const largest = largestImpacts.list.map(
      (x): LargestImpact => ({
        securityId: x.h.security_id,
        name: x.h.security_name,
        currency: x.h.price_currency,
        quantity: x.h.quantity,
        tpaPrice: x.h.price,
        independentPrice: x.independentPrice.price,
        independentPriceDate: x.independentPrice.price_date,
        independentPriceSource: x.independentPrice.price_source,
        tpaFx: x.tpaFx,
        marketValueBase: x.h.market_value_base,
        impact: round(x.impact),
        file: x.h.file,
        line: x.h.line,
      }),
    );
    const out = items.items();
    out.push({
      ...base,
      name: 'Price testing: total impact',
      status,
      diff: netTotal,
      threshold: status === 'fail' ? pm : sad,
      message: `${tested} of ${holdings} holdings tested against an independent price: net impact ${fmt(netTotal)} ${ctx.currency} (gross ${fmt(gross)}) vs SAD ${fmt(sad)} / PM ${fmt(pm)}; ${flagged} holding(s) above TE ${fmt(te)}${noPrice ? `; ${noPrice} without an independent price` : ''}${noRate ? `; ${noRate} without a TPA rate to bring the difference into ${ctx.currency}` : ''}`,
      details: {
        performed: true,
        tested,
        noIndependentPrice: noPrice,
        noTpaRate: noRate,
        flagged,
        net: netTotal,
        gross,
        ownPriceSources: [...own],
        largest,
        pm,
        te,
        sad,
      } satisfies PriceTestingSummary,
    });
    return out;
  };
  return { add, finish };
}

export function priceTesting(data: FundSdmData, ctx: CheckContext): Promise<QaRec[]> {
  return runPass(priceTestingPass(data, ctx), data.holdings);
}
