/**
 * What demo mode may remove (auditor spec 2.2 "Demo side widget": 1 Demo fund request, 3 Reset
 * demo data): only what the demo itself created. A fund request is the demo's when its creation
 * entry of the audit trail has the action `demo` (made by step 1, or loaded with the demo data for
 * the demo TPA). Even then it stays when anybody changed it since (any later trail entry: a status
 * change, an edit, a file review...) or when files not delivered by the demo reached it. Input
 * files are the demo's when imported by step 2 (`source` 'demo') for the demo TPA; they go once no
 * fund request that stays uses them and their identification has finished. Fund requests of the
 * demo TPA that users uploaded are never touched.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { afterCommit, transaction } from '../../db/tx.js';
import type { BulkSaveOptions } from '../bulk-upload/save-rows.js';

/** The demo TPA's code (spec section 9). */
export const DEMO_TPA = 'demo_test';

/** Trail action of a fund request the demo created (by step 1 or with the demo data). */
export const DEMO_ACTION = 'demo';

/**
 * How the demo data's real fund requests are saved (first start, developer 'populate'): as an
 * auditor upload, the demo TPA's request marked as the demo's own.
 */
export const DEMO_DATA_SAVE: BulkSaveOptions = { overwrite: false, action: 'bulk-upload', actionByTpa: { [DEMO_TPA]: DEMO_ACTION } };

/** Import statuses of a file whose identification is over (Awaiting and Processing are still going). */
const FINISHED_IMPORTS = ['Success', 'Error', 'Finished'] as const;

/** A fund request named to the user: id, name, main fund code, status. */
export interface DemoFundRef {
  id: number;
  name: string;
  fund_code: string | null;
  status: string;
}

/** A fund request the demo created that stays, with why (e.g. 'changed since the demo created it (pause)'). */
export interface KeptDemoFund extends DemoFundRef {
  reason: string;
}

/**
 * What the demo removes, or removed: its fund requests and input files (file names), the fund
 * requests it created that stay and why, and how many fund requests of the demo TPA are not the
 * demo's at all (they always stay).
 */
export interface DemoCleanup {
  fundRequests: DemoFundRef[];
  importFiles: string[];
  kept: KeptDemoFund[];
  otherFundRequests: number;
}

/** An empty cleanup (nothing to remove, nothing kept). */
export const NOTHING_REMOVED: DemoCleanup = { fundRequests: [], importFiles: [], kept: [], otherFundRequests: 0 };

/** The demo TPA's id, or null when there is no such TPA. */
async function demoTpaId(ctx: AppContext): Promise<number | null> {
  const { db, tables: t } = storeOf(ctx);
  const [tpa] = await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.code, DEMO_TPA)).limit(1);
  return tpa?.id ?? null;
}

/** The plan with the ids it acts on. */
interface Plan extends DemoCleanup {
  fundIds: number[];
  importIds: number[];
}

async function plan(ctx: AppContext): Promise<Plan> {
  const tpaId = await demoTpaId(ctx);
  if (tpaId === null) return { ...NOTHING_REMOVED, fundIds: [], importIds: [] };
  const { db, tables: t } = storeOf(ctx);
  const funds = await db
    .select({ id: t.fundRequests.id, name: t.fundRequests.name, status: t.fundRequests.status })
    .from(t.fundRequests)
    .where(eq(t.fundRequests.administratorId, tpaId))
    .orderBy(asc(t.fundRequests.id));
  const ids = funds.map((f) => f.id);
  const trail = ids.length
    ? await db
        .select({ fundRequestId: t.trail.fundRequestId, action: t.trail.action })
        .from(t.trail)
        .where(inArray(t.trail.fundRequestId, ids))
        .orderBy(asc(t.trail.id))
    : [];
  const actions = new Map<number, string[]>();
  for (const e of trail) actions.set(e.fundRequestId!, [...(actions.get(e.fundRequestId!) ?? []), e.action]);
  // input files not delivered by the demo: another source, or no import at all
  const delivered = ids.length
    ? await db
        .select({ fundRequestId: t.fundFiles.fundRequestId, source: t.importFiles.source })
        .from(t.fundFiles)
        .leftJoin(t.importFiles, eq(t.fundFiles.importFileId, t.importFiles.id))
        .where(and(inArray(t.fundFiles.fundRequestId, ids), eq(t.fundFiles.kind, 'input')))
    : [];
  const foreignFiles = new Map<number, number>();
  for (const f of delivered) if (f.source !== 'demo') foreignFiles.set(f.fundRequestId, (foreignFiles.get(f.fundRequestId) ?? 0) + 1);
  const codes = ids.length
    ? await db
        .select({ fundRequestId: t.fundCodes.fundRequestId, code: t.fundCodes.code })
        .from(t.fundCodes)
        .where(and(inArray(t.fundCodes.fundRequestId, ids), eq(t.fundCodes.main, true)))
    : [];
  const codeOf = new Map(codes.map((c) => [c.fundRequestId, c.code]));

  const out: Plan = { fundRequests: [], importFiles: [], kept: [], otherFundRequests: 0, fundIds: [], importIds: [] };
  for (const f of funds) {
    const [created, ...later] = actions.get(f.id) ?? [];
    if (created !== DEMO_ACTION) {
      out.otherFundRequests++;
      continue;
    }
    const ref: DemoFundRef = { id: f.id, name: f.name, fund_code: codeOf.get(f.id) ?? null, status: f.status };
    const files = foreignFiles.get(f.id) ?? 0;
    const reasons = [
      ...(later.length ? [`changed since the demo created it (${[...new Set(later)].join(', ')})`] : []),
      ...(files ? [`${files} input file${files === 1 ? '' : 's'} not from the demo delivered to it`] : []),
    ];
    if (reasons.length) out.kept.push({ ...ref, reason: reasons.join('; ') });
    else {
      out.fundRequests.push(ref);
      out.fundIds.push(f.id);
    }
  }
  // the demo's input files that no staying fund request uses, once identified
  const imports = await db
    .select({ id: t.importFiles.id, fileName: t.importFiles.fileName })
    .from(t.importFiles)
    .where(and(eq(t.importFiles.administratorId, tpaId), eq(t.importFiles.source, 'demo'), inArray(t.importFiles.status, [...FINISHED_IMPORTS])))
    .orderBy(asc(t.importFiles.fileName), asc(t.importFiles.id));
  if (imports.length) {
    const used = await db
      .selectDistinct({ importFileId: t.fundFiles.importFileId })
      .from(t.fundFiles)
      .where(
        and(
          inArray(
            t.fundFiles.importFileId,
            imports.map((i) => i.id),
          ),
          out.fundIds.length ? notInArray(t.fundFiles.fundRequestId, out.fundIds) : undefined,
        ),
      );
    const inUse = new Set(used.map((u) => u.importFileId));
    for (const i of imports)
      if (!inUse.has(i.id)) {
        out.importFiles.push(i.fileName);
        out.importIds.push(i.id);
      }
  }
  return out;
}

const publicPart = ({ fundRequests, importFiles, kept, otherFundRequests }: Plan): DemoCleanup => ({ fundRequests, importFiles, kept, otherFundRequests });

/** What removing the demo data would remove now, and what would stay (shown before the user confirms). */
export async function planDemoCleanup(ctx: AppContext): Promise<DemoCleanup> {
  return publicPart(await plan(ctx));
}

/**
 * Removes the demo's fund requests (their files, jobs and logs go with them) and its input files,
 * as `planDemoCleanup` describes them at the time of the removal (decided again inside the
 * transaction, so a change made meanwhile is respected).
 * @returns what was removed and what stayed
 */
export async function removeDemoData(ctx: AppContext): Promise<DemoCleanup> {
  return transaction(ctx, async (tx) => {
    const p = await plan(ctx);
    const { tables: t } = storeOf(ctx);
    if (p.fundIds.length) {
      await tx.delete(t.unmatchedFiles).where(inArray(t.unmatchedFiles.fundId, p.fundIds));
      await tx.delete(t.fundRequests).where(inArray(t.fundRequests.id, p.fundIds));
    }
    // no fund request that stays holds these files (their unidentified and unmatched rows cascade)
    if (p.importIds.length) await tx.delete(t.importFiles).where(inArray(t.importFiles.id, p.importIds));
    if (p.fundIds.length) afterCommit(ctx, () => ctx.events.publish('fund-request', { ids: p.fundIds, action: 'demo-removed' }));
    return publicPart(p);
  });
}
