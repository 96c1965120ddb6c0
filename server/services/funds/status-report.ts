/**
 * The auditor's status report (auditor spec 2.3 "Status Reporting", 3 "Status report", 9;
 * DOMAIN.md section 5). Deleted funds are left out everywhere. Active funds: data due date in the
 * past and status not Issued. Among them, late: under 80% of required input files received; on
 * time: the rest (80% included).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, count, desc, isNotNull, lt, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { loadFundFacts } from './derive.js';
import { todayIso } from '../../lib/dates.js';
import { cachedListingJson } from '../cache/listing-cache.js';
import { queryFundPage, toAuditorRow, type AuditorFundRow } from './listing.js';

export interface NameCount {
  name: string;
  count: number;
}

export interface FundGroup {
  count: number;
  /** per client, most funds first */
  clients: NameCount[];
  /** per administrator (TPA) name, most funds first */
  administrators: NameCount[];
  /** auditor listing rows, data due date descending */
  funds: AuditorFundRow[];
}

export interface StatusReport {
  totalFunds: { count: number };
  activeFunds: { count: number };
  lateFunds: FundGroup;
  onTimeFunds: FundGroup;
}

/** Label of funds without an administrator in the per-TPA counts. */
export const NO_ADMINISTRATOR = 'No administrator';

function countBy(rows: AuditorFundRow[], key: (r: AuditorFundRow) => string): NameCount[] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

function group(rows: AuditorFundRow[]): FundGroup {
  return {
    count: rows.length,
    clients: countBy(rows, (r) => r.client),
    administrators: countBy(rows, (r) => r.administrator ?? NO_ADMINISTRATOR),
    funds: rows,
  };
}

/** Builds the status report (GET /user/status-report). `today` (ISO date) is for tests. */
export async function statusReport(ctx: AppContext, today = todayIso()): Promise<StatusReport> {
  const { db, tables: t } = storeOf(ctx);
  const fr = t.fundRequests;
  const [total] = await db.select({ n: count() }).from(fr).where(ne(fr.status, 'Deleted'));
  const activeWhere = and(ne(fr.status, 'Deleted'), ne(fr.status, 'Issued'), isNotNull(fr.dueDate), lt(fr.dueDate, today));
  const page = await queryFundPage(ctx, activeWhere, [desc(fr.dueDate), desc(fr.id)], 0, null);
  const facts = await loadFundFacts(
    ctx,
    page.map((p) => p.fund.id),
  );
  const rows = page.map((p) => toAuditorRow(p, facts.get(p.fund.id)!, today));
  return {
    totalFunds: { count: total?.n ?? 0 },
    activeFunds: { count: rows.length },
    lateFunds: group(rows.filter((r) => r.isLate)),
    onTimeFunds: group(rows.filter((r) => !r.isLate)),
  };
}

/**
 * The status report as JSON, kept with the listing pages (listing-cache.ts) until a write the
 * listings see or the next day: the same for every user, and read by every auditor's dashboard.
 * @returns `{ json }`, the same object while it is fresh
 */
export function statusReportJson(ctx: AppContext): Promise<{ readonly json: string }> {
  return cachedListingJson(ctx, '["status-report"]', () => statusReport(ctx));
}
