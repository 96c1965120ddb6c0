/**
 * Ongoing processes (delivery spec section 7 `GET /processes`; "Developer tools" dev info: the top
 * 5 distinct running funds with fundCode, tpaName, createdBy, reRunBy). The pending and running
 * processes of every fund, newest first, each with who created its fund request and who last
 * reran it; with `top` only the newest process of each of the first `top` funds.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { listOngoingProcesses } from '../files/process-actions.js';

/** Funds shown in dev info (spec: top 5). */
export const DEV_INFO_FUNDS = 5;

export type OngoingProcess = Awaited<ReturnType<typeof listOngoingProcesses>>[number] & { createdBy: string | null; reRunBy: string | null };

const nameOf = (u: { firstName: string | null; lastName: string | null; email: string | null } | null) =>
  u?.email ? `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.email : null;

/**
 * Pending and running processes, newest first.
 * @param opts.top keep only the newest process of each of the first `top` distinct funds
 */
export async function listOngoing(ctx: AppContext, opts: { top?: number } = {}): Promise<OngoingProcess[]> {
  let rows = await listOngoingProcesses(ctx);
  if (opts.top !== undefined) {
    const seen = new Set<number | null>();
    rows = rows.filter((r) => (seen.has(r.fund_request_id) || seen.size >= opts.top! ? false : (seen.add(r.fund_request_id), true)));
  }
  const ids = [...new Set(rows.map((r) => r.fund_request_id).filter((id): id is number => id !== null))];
  const { db, tables: t } = storeOf(ctx);
  const creator = alias(t.users, 'creator');
  const rerunner = alias(t.users, 'rerunner');
  const people = ids.length
    ? await db
        .select({
          id: t.fundRequests.id,
          creator: { firstName: creator.firstName, lastName: creator.lastName, email: creator.email },
          rerunner: { firstName: rerunner.firstName, lastName: rerunner.lastName, email: rerunner.email },
        })
        .from(t.fundRequests)
        .leftJoin(creator, eq(t.fundRequests.createdById, creator.id))
        .leftJoin(rerunner, eq(t.fundRequests.rerunById, rerunner.id))
        .where(inArray(t.fundRequests.id, ids))
    : [];
  const byFund = new Map(people.map((p) => [p.id, p]));
  return rows.map((r) => {
    const p = r.fund_request_id === null ? undefined : byFund.get(r.fund_request_id);
    return { ...r, createdBy: nameOf(p?.creator ?? null), reRunBy: nameOf(p?.rerunner ?? null) };
  });
}
