/**
 * Holdings integrity (DOMAIN.md 2.4 item 6), row by row:
 * - Value: quantity x price / q = market_value_local, q = 100 when the price is quoted per 100 of
 *   nominal (bonds) and 1 when per unit; q is detected per row by whichever convention lands
 *   closer to the local value (`priceFactor`). Tolerance: 0.01 (a cent) plus the effect of half a
 *   unit in the price's last given decimal (|quantity| x 0.5 x 10^-decimals / q). Then
 *   market_value_local / fx_rate (units per base; 1 for the base currency) = market_value_base
 *   within a cent in each currency (0.01 + 0.01 / fx_rate). Without a local value, quantity x
 *   price / q / fx_rate is compared with the base value directly. A value outside rounding is a
 *   warning when the base difference is within the SAD amount and a fail above it.
 * - Duplicates: a security id on more than one row. Rows identical in quantity, price and base
 *   value are a probable double count (fail); different positions in one id (long / short legs of
 *   a TBA roll or a swap, separate lots) are a warning to confirm.
 * - Identifiers: id_type ISIN, CUSIP (or FIGI) -> check digit validated (identifiers.ts), invalid =
 *   fail; any other id_type (or none) whose id is shaped like a FIGI, an ISIN or a CUSIP (tried in
 *   that order: FIGIs such as BBG019PMT1H1 are ISIN-shaped) is validated too, and an invalid
 *   check digit there is a warning (it may be an internal code).
 * - A revalued position (a booked audit adjustment's holdings line) is checked with its figures as
 *   delivered (`delivered`): the revaluation is the auditor's journal, and scaling a price must not
 *   turn the TPA's sub-cent rounding into a difference. A position an aggregate parent consolidated
 *   from several children's rows of one security (`parts`, docs/decisions/0013) is not a
 *   duplicate: each of its rows is checked and named; within one child, identical rows are a
 *   probable double count (fail) and different ones a warning, as above; rows the children priced
 *   differently are a warning.
 * One QaRec per holding with a problem (name = security id, file + line; diff = base-value
 * difference, the row's base value for an exact duplicate, 0 for a different position in the same
 * id and for identifier problems), plus one pass item when every holding is clear. Holdings are
 * read once, row by row; per security id only its first lines and distinct positions are kept,
 * and the items are limited as they come (`ItemLimit`).
 */
import type { FundSdmData, HoldingRow, QaRec } from '../sdm/rows.js';
import { decimalsOf, fmt, isBaseCurrency, ItemLimit, localValue, priceFactor, round, runPass, worst, type CheckContext, type HoldingsPass } from './common.js';
import { checkCusip, checkFigi, checkIsin, CUSIP_SHAPE, FIGI_SHAPE, ISIN_SHAPE } from './identifiers.js';

export const HOLDINGS_INTEGRITY = 'holdings_integrity';

interface Problem {
  status: QaRec['status'];
  text: string;
  diff: number;
}

/** Value problems of one holding (empty when within rounding). */
export function valueProblems(h: HoldingRow, ctx: CheckContext): Problem[] {
  const out: Problem[] = [];
  const factor = priceFactor(h);
  const fx = h.fx_rate ?? (isBaseCurrency(h.price_currency, ctx.currency) ? 1 : null);
  const computedLocal = (h.quantity * h.price) / factor;
  const priceTol = (Math.abs(h.quantity) * 0.5 * 10 ** -decimalsOf(h.price)) / factor;
  const judge = (baseDiff: number) => (Math.abs(baseDiff) > ctx.materiality.sad ? 'fail' : 'warning') as QaRec['status'];
  const quote = factor === 100 ? ' / 100 (per 100 of nominal)' : '';
  if (h.market_value_local !== null && h.market_value_local !== undefined) {
    const d = computedLocal - h.market_value_local;
    if (Math.abs(d) > 0.01 + priceTol + 1e-9 * Math.abs(h.market_value_local)) {
      const baseDiff = fx ? d / fx : d;
      out.push({
        status: judge(baseDiff),
        diff: round(baseDiff),
        text: `quantity ${h.quantity} x price ${h.price}${quote} = ${fmt(computedLocal)} vs market value local ${fmt(h.market_value_local)} (${h.price_currency ?? ''} diff ${fmt(d)})`,
      });
    }
    if (fx) {
      const base = h.market_value_local / fx;
      const db = base - h.market_value_base;
      if (Math.abs(db) > 0.01 + 0.01 / fx + 1e-9 * Math.abs(h.market_value_base)) {
        out.push({
          status: judge(db),
          diff: round(db),
          text: `market value local ${fmt(h.market_value_local)} / fx ${fx} = ${fmt(base)} vs market value base ${fmt(h.market_value_base)} (diff ${fmt(db)})`,
        });
      }
    }
  } else if (fx) {
    const base = computedLocal / fx;
    const db = base - h.market_value_base;
    if (Math.abs(db) > 0.01 + 0.01 / fx + priceTol / fx + 1e-9 * Math.abs(h.market_value_base)) {
      out.push({
        status: judge(db),
        diff: round(db),
        text: `quantity x price${quote} / fx ${fx} = ${fmt(base)} vs market value base ${fmt(h.market_value_base)} (diff ${fmt(db)})`,
      });
    }
  }
  return out;
}

/** Identifier problems of one holding. */
export function identifierProblems(h: HoldingRow): Problem[] {
  const id = h.security_id.trim().toUpperCase();
  const type = (h.id_type ?? '').trim().toUpperCase();
  if (type === 'ISIN' || type === 'CUSIP' || type === 'FIGI') {
    const r = type === 'ISIN' ? checkIsin(id) : type === 'CUSIP' ? checkCusip(id) : checkFigi(id);
    return r.ok ? [] : [{ status: 'fail', diff: 0, text: r.reason }];
  }
  const shaped = FIGI_SHAPE.test(id) ? checkFigi(id) : ISIN_SHAPE.test(id) ? checkIsin(id) : CUSIP_SHAPE.test(id) ? checkCusip(id) : null;
  if (!shaped || shaped.ok) return [];
  return [{ status: 'warning', diff: 0, text: `${shaped.reason} (id_type ${type || 'not given'}: may be an internal code)` }];
}

/** A holding's figures as delivered: a revalued position (booked audit adjustment) is checked as the TPA gave it. */
const asDelivered = (h: HoldingRow): HoldingRow => (h.delivered ? { ...h, ...h.delivered } : h);

/** Where a part of a consolidated position comes from, in messages. */
const partName = (p: HoldingRow) => `${p.fund_code} ${p.file} line ${p.line}`;

/**
 * The problems of a position consolidated from several children's rows (aggregation): each row's
 * own value problems, naming it; within one child (same fund code and file), rows identical in
 * quantity, price and value (probable double count, fail) or different positions (warning); and
 * rows priced differently (warning: which price is right is to be confirmed).
 */
export function consolidatedProblems(h: HoldingRow, ctx: CheckContext): Problem[] {
  const parts = h.parts ?? [];
  const out: Problem[] = [];
  const byChild = new Map<string, HoldingRow[]>();
  for (const p of parts) {
    for (const v of valueProblems(asDelivered(p), ctx)) out.push({ ...v, text: `${partName(p)}: ${v.text}` });
    const child = `${p.fund_code}\u0000${p.file}`;
    const earlier = byChild.get(child) ?? [];
    const twin = earlier.find((e) => e.quantity === p.quantity && e.price === p.price && e.market_value_base === p.market_value_base);
    if (twin)
      out.push({
        status: 'fail',
        diff: round(p.market_value_base),
        text: `${partName(p)} is an exact duplicate of line ${twin.line} (same quantity, price and value): probable double count`,
      });
    else if (earlier.length)
      out.push({
        status: 'warning',
        diff: 0,
        text: `${partName(p)}: security also held on line(s) ${earlier.map((e) => e.line).join(', ')} of that fund with a different position (separate lots or long / short legs): confirm it is not double counted`,
      });
    byChild.set(child, [...earlier, p]);
  }
  // the prices as the TPAs delivered them: an auditor's revaluation of one child's row is not a disagreement
  const prices = new Set(parts.map((p) => asDelivered(p).price));
  if (prices.size > 1)
    out.push({
      status: 'warning',
      diff: 0,
      text: `priced differently by the child funds (${parts.map((p) => `${partName(p)}: ${asDelivered(p).price}`).join('; ')}): consolidated at the value-weighted price ${h.price}; confirm which price is right`,
    });
  return out;
}

/** What is remembered of a security id already seen: enough for the duplicate messages, bounded per id. */
interface Seen {
  /** Lines of its first rows (up to 5). */
  lines: number[];
  count: number;
  /** First row of each distinct position (quantity, price, base value). */
  positions: Map<string, { file: string; line: number }>;
}

/** Lines named in a duplicate's message. */
const SHOWN_LINES = 5;

/** Holdings integrity as a holdings pass (see the module's description). */
export function holdingsIntegrityPass(_data: FundSdmData, ctx: CheckContext): HoldingsPass {
  const items = new ItemLimit(HOLDINGS_INTEGRITY, ctx.maxItemsPerCheck);
  const seen = new Map<string, Seen>();
  let per100 = 0;
  let holdings = 0;
  const add = (h: HoldingRow): void => {
    holdings++;
    if (priceFactor(h) === 100) per100++;
    const list = [...(h.parts ? consolidatedProblems(h, ctx) : valueProblems(asDelivered(h), ctx)), ...identifierProblems(h)];
    const key = h.security_id.trim().toUpperCase();
    const position = `${h.quantity}|${h.price}|${h.market_value_base}`;
    const earlier = seen.get(key);
    if (earlier) {
      const twin = earlier.positions.get(position);
      list.push(
        twin
          ? {
              status: 'fail',
              diff: round(h.market_value_base),
              text: `exact duplicate of ${twin.file} line ${twin.line} (same quantity, price and value): probable double count`,
            }
          : {
              status: 'warning',
              diff: 0,
              text: `security also held on line(s) ${earlier.lines.join(', ')}${earlier.count > SHOWN_LINES ? ` and ${earlier.count - SHOWN_LINES} more` : ''} with a different position (separate lots or long / short legs): confirm it is not double counted`,
            },
      );
      earlier.count++;
      if (earlier.lines.length < SHOWN_LINES) earlier.lines.push(h.line);
      if (!twin) earlier.positions.set(position, { file: h.file, line: h.line });
    } else seen.set(key, { lines: [h.line], count: 1, positions: new Map([[position, { file: h.file, line: h.line }]]) });
    if (!list.length) return;
    const main = list.reduce((a, b) => (Math.abs(b.diff) > Math.abs(a.diff) ? b : a));
    const status = worst(list.map((p) => p.status));
    items.offer(status, () => ({
      check: HOLDINGS_INTEGRITY,
      name: h.security_id,
      status,
      diff: main.diff,
      threshold: ctx.materiality.sad,
      file: h.file,
      line: h.line,
      message: `${h.security_name}: ${list.map((p) => p.text).join('; ')}`,
      details: {
        problems: list.map((p) => p.text),
        quantity: h.quantity,
        price: h.price,
        priceFactor: priceFactor(h),
        marketValueLocal: h.market_value_local,
        marketValueBase: h.market_value_base,
        fxRate: h.fx_rate,
      },
    }));
  };
  const finish = (): QaRec[] => {
    if (!holdings) {
      // nothing was checked: never a pass
      items.add({
        check: HOLDINGS_INTEGRITY,
        name: 'All holdings',
        status: 'warning',
        diff: 0,
        threshold: null,
        message: 'No holdings delivered: holdings integrity not performed',
        notPerformed: 'no holdings delivered',
      });
    } else if (!items.count) {
      items.add({
        check: HOLDINGS_INTEGRITY,
        name: 'All holdings',
        status: 'pass',
        diff: 0,
        threshold: ctx.materiality.sad,
        message: `${holdings} holdings: quantity x price x fx = market value within rounding (${per100} priced per 100 of nominal, ${holdings - per100} per unit), no duplicate ids, ISIN / CUSIP check digits valid`,
        details: { holdings, pricedPer100: per100, pricedPerUnit: holdings - per100 },
      });
    }
    return items.items();
  };
  return { add, finish };
}

export function holdingsIntegrity(data: FundSdmData, ctx: CheckContext): Promise<QaRec[]> {
  return runPass(holdingsIntegrityPass(data, ctx), data.holdings);
}
