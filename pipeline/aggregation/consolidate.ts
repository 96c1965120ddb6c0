/**
 * Consolidation of the positions of an aggregate parent (docs/decisions/0013-fund-aggregation.md):
 * a security that two or more children hold, in one price currency, is one position of the parent,
 * whose quantity, local and base values (and cost and accrued income, where every row gives them)
 * are the sums of the children's rows. It is not a duplicate: two funds of a group holding the same
 * bond is the normal case. The position keeps the children's rows (`parts`, converted into the
 * parent's currency) so that holdings integrity checks each delivered row and the work paper names
 * each one. Its price is the children's price when they agree; otherwise the value-weighted price
 * (local value x quotation / quantity), and holdings integrity reports the disagreement.
 * A security held by one child only (even on several rows: lots, long / short legs) is left as
 * delivered. Pure: no database, no server imports.
 */
import { priceFactor, Sum } from '../checks/common.js';
import { chunksOf, type HoldingRow, type Rows, type RowSource } from '../sdm/rows.js';

/** Rows yielded per chunk for the consolidated positions. */
const CHUNK = 1000;

/**
 * The consolidation key of a holding: its security id (trimmed, upper case) and price currency (a
 * row without one is priced in its own fund's currency, `fundCurrency`).
 */
export function consolidationKey(h: Pick<HoldingRow, 'security_id' | 'price_currency'>, fundCurrency: string): string {
  return `${h.security_id.trim().toUpperCase()}\u0000${(h.price_currency?.trim() || fundCurrency).toUpperCase()}`;
}

/** Which securities several children hold, found in one pass over each child's holdings. */
export class SharedSecurities {
  /** Key -> index of the only child holding it, or -1 once a second child holds it; and its rows. */
  private readonly seen = new Map<string, { child: number; rows: number }>();
  private sharedKeys = 0;
  private sharedRows = 0;

  /** Records one row of child `child` (children numbered in the order they are combined). */
  add(key: string, child: number): void {
    const s = this.seen.get(key);
    if (!s) {
      this.seen.set(key, { child, rows: 1 });
      return;
    }
    if (s.child === -1) {
      s.rows++;
      this.sharedRows++;
      return;
    }
    s.rows++;
    if (s.child === child) return;
    // a second child: this key's rows so far, and all that follow, are consolidated
    s.child = -1;
    this.sharedKeys++;
    this.sharedRows += s.rows;
  }

  /** Whether a key is held by two or more children. */
  isShared(key: string): boolean {
    return this.seen.get(key)?.child === -1;
  }

  /** Consolidated positions (securities held by several children) and the rows they are made of. */
  get counts(): { positions: number; rows: number } {
    return { positions: this.sharedKeys, rows: this.sharedRows };
  }

  /** Forgets the securities held by one child only (after the pass: they are never asked about). */
  compact(): void {
    for (const [k, v] of this.seen) if (v.child !== -1) this.seen.delete(k);
  }
}

/** Sum of a column over rows, or null when a row lacks it. */
function sumOrNull(rows: HoldingRow[], pick: (h: HoldingRow) => number | null | undefined): number | null {
  const s = new Sum();
  for (const h of rows) {
    const v = pick(h);
    if (v === null || v === undefined) return null;
    s.add(v);
  }
  return s.value;
}

/**
 * One position of the rows of one security held by several children (see the module comment).
 * Input: the rows, converted into the parent's currency, at least one. Output: a new row.
 */
export function consolidatePosition(rows: HoldingRow[]): HoldingRow {
  const first = rows[0];
  const quantity = sumOrNull(rows, (h) => h.quantity) ?? 0;
  const local = sumOrNull(rows, (h) => h.market_value_local);
  const base = sumOrNull(rows, (h) => h.market_value_base) ?? 0;
  const samePrice = rows.every((h) => h.price === first.price);
  const price = samePrice || !quantity || local === null ? first.price : (local * priceFactor(first)) / quantity;
  const localForFx = local ?? sumOrNull(rows, (h) => (h.fx_rate ? h.market_value_base * h.fx_rate : null));
  return {
    ...first,
    quantity,
    price,
    market_value_local: local,
    market_value_base: base,
    fx_rate: localForFx !== null && base ? localForFx / base : first.fx_rate,
    cost_base: sumOrNull(rows, (h) => h.cost_base),
    accrued_income_base: sumOrNull(rows, (h) => h.accrued_income_base),
    adjustedBy: rows.some((h) => h.adjustedBy?.length) ? rows.flatMap((h) => h.adjustedBy ?? []) : undefined,
    delivered: undefined,
    parts: rows,
  };
}

/** One child's holdings as the consolidation reads them: its rows, their converter and its currency. */
export interface ChildHoldings {
  rows: Rows<HoldingRow>;
  map: (h: HoldingRow) => HoldingRow;
  currency: string;
}

/**
 * The holdings of an aggregate: each child's rows in turn, converted, except the rows of securities
 * several children hold, which follow as one consolidated position each (in the order first seen).
 * Memory: the rows of the shared securities, kept while a pass reads the children.
 */
export class ConsolidatedHoldings implements RowSource<HoldingRow> {
  constructor(
    private readonly children: ChildHoldings[],
    private readonly shared: SharedSecurities,
  ) {}

  get length(): number {
    const { positions, rows } = this.shared.counts;
    return this.children.reduce((n, c) => n + c.rows.length, 0) - rows + positions;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<HoldingRow[]> {
    const groups = new Map<string, HoldingRow[]>();
    for (const c of this.children)
      for await (const chunk of chunksOf(c.rows)) {
        const out: HoldingRow[] = [];
        for (const raw of chunk) {
          const h = c.map(raw);
          const key = this.shared.counts.positions ? consolidationKey(raw, c.currency) : '';
          if (key && this.shared.isShared(key)) {
            const g = groups.get(key);
            if (g) g.push(h);
            else groups.set(key, [h]);
          } else out.push(h);
        }
        if (out.length) yield out;
      }
    let out: HoldingRow[] = [];
    for (const rows of groups.values()) {
      out.push(consolidatePosition(rows));
      if (out.length === CHUNK) {
        yield out;
        out = [];
      }
    }
    if (out.length) yield out;
  }
}
