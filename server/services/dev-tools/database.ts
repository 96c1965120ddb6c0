/**
 * Database actions of the developer tools (delivery spec "Developer tools": database actions;
 * section 5: only in a local environment; section 7 `POST /dev-tools/db/reset`, `/clear`,
 * `/populate`, `/populate/force-master-mappings`, `/populate/administrators {region}`,
 * `/dev-tools/tables/drop`). What each does:
 * - clear: removes the audit work (fund requests and all attached to them, imported files and the
 *   Input files lists, exports, self-onboarding uploads, test runs, PowerBI inputs, custom
 *   mappings, user-saved filters, the demo state); keeps users, tokens, settings, reference data,
 *   TPAs and their master mappings. Stored files stay in the blob store.
 * - reset: clear, then also the TPAs and master mappings, then populate: a data directory as on
 *   a first start with demo data.
 * - populate: adds the demo data that is missing (shipped TPAs, their master mappings, the real
 *   fund requests of `fixtures/fund-requests/real-funds.csv`).
 * - force master mappings: replaces every TPA's master mappings with the shipped ones.
 * - administrators {region}: adds the shipped TPAs of a region.
 * - drop tables: drops every table, rebuilds the empty schema, the reference data, the fixed
 *   filters and the administrator, and re-creates the calling user with a new session.
 * Destructive actions are refused while pipeline processes or test runs are running.
 * Drop tables is SQLite only (on PostgreSQL it is refused: drop and create the database instead).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { count, eq, getTableName, inArray, type SQL } from 'drizzle-orm';
import { addShippedAdministrators, ensureFixedFilters } from '../setup/prepare.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { issueToken, type User } from '../auth/tokens.js';
import { uploadAndSaveBulk } from '../bulk-upload/bulk-upload.js';
import { DEMO_DATA_SAVE } from '../demo/cleanup.js';
import { forceFixtureMasterMappings } from '../mappings/fixtures.js';
import { seedFixtureMappings } from '../mappings/store.js';
import { REGIONS } from '../reference-data/catalog/lists.js';
import { seedReferenceData } from '../reference-data/reference-data.js';
import { ensureAdmin } from '../users/users.js';
import { dropAndRebuildSqlite } from './drop-sqlite.js';

/** Row counts removed, by table. */
export type Removed = Record<string, number>;

/** What populate added. */
export interface Populated {
  administrators: string[];
  masterMappings: number;
  fundRequests: number;
  /** Demo fund requests not added (most often: they exist already), with the first reason. */
  skipped: number;
  skippedReason: string | null;
}

/**
 * Refuses while work is running: a running job would write into rows being removed.
 * @throws ConflictError naming what runs
 */
async function assertIdle(ctx: AppContext, action: string): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const [p] = await db.select({ n: count() }).from(t.processes).where(eq(t.processes.status, 'running'));
  const [r] = await db
    .select({ n: count() })
    .from(t.testRuns)
    .where(inArray(t.testRuns.status, ['pending', 'running']));
  const running = Number(p?.n ?? 0);
  const tests = Number(r?.n ?? 0);
  if (!running && !tests) return;
  const what = [
    running && `${running} process${running === 1 ? ' is' : 'es are'} running`,
    tests && `${tests} test run${tests === 1 ? ' is' : 's are'} under way`,
  ]
    .filter(Boolean)
    .join(' and ');
  throw new ConflictError(`Cannot ${action} now: ${what}`, [
    `Wait until they finish, or switch the pipeline service off on the Developer tools tab and stop the test runs first`,
  ]);
}

/** Tables of the audit work, children before parents. */
const WORK_TABLES = [
  'sdmChunks',
  'fundMappings',
  'fundFiles',
  'processes',
  'orchestrationLogs',
  'trail',
  'recipients',
  'fundCodes',
  'unidentifiedFiles',
  'unmatchedFiles',
  'sweptFiles',
  'sdmUploadFiles',
  'sdmUploads',
  'exportFiles',
  'testRuns',
  'pbiInputFiles',
  'importFiles',
] as const satisfies ReadonlyArray<keyof Tables>;

/** Removes the audit work in one transaction (see the module comment). */
async function removeWork(ctx: AppContext, alsoTpas: boolean): Promise<Removed> {
  const { tables: t } = storeOf(ctx);
  const removed: Removed = {};
  await transaction(ctx, async (tx) => {
    // rows counted before their delete, in the same transaction (no driver's changed-row count)
    const clear = async (table: Tables[keyof Tables], where?: SQL) => {
      const [row] = await tx.select({ n: count() }).from(table).where(where);
      await tx.delete(table).where(where);
      return Number(row?.n ?? 0);
    };
    for (const name of WORK_TABLES) removed[getTableName(t[name])] = await clear(t[name]);
    removed.fund_requests = await clear(t.fundRequests);
    removed.mapping_version_uses = await clear(t.mappingVersionUses);
    const custom = tx.select({ id: t.mappings.id }).from(t.mappings).where(eq(t.mappings.kind, 'custom'));
    await tx.delete(t.mappingVersions).where(alsoTpas ? undefined : inArray(t.mappingVersions.mappingId, custom));
    removed.custom_mappings = await clear(t.mappings, eq(t.mappings.kind, 'custom'));
    removed.saved_filters = await clear(t.savedFilters, eq(t.savedFilters.fixed, false));
    await tx.delete(t.settings).where(eq(t.settings.key, 'demo'));
    if (alsoTpas) {
      removed.master_mappings = await clear(t.mappings);
      removed.administrators = await clear(t.administrators);
    }
  });
  return removed;
}

/**
 * Removes the audit work, keeping users, settings, reference data, TPAs and master mappings.
 * @throws ConflictError while processes or test runs are running
 */
export async function clearDatabase(ctx: AppContext, by: User): Promise<{ removed: Removed }> {
  await assertIdle(ctx, 'clear the database');
  const removed = await removeWork(ctx, false);
  ctx.log.warn({ by: by.id, removed }, 'database cleared');
  return { removed };
}

/**
 * Adds the demo data that is missing: shipped TPAs, their master mappings, the real fund requests.
 */
export async function populateDatabase(ctx: AppContext, by: User): Promise<Populated> {
  const added = await addShippedAdministrators(ctx);
  const masterMappings = await seedFixtureMappings(ctx);
  const csv = join(fixturesDir(), 'fund-requests', 'real-funds.csv');
  let funds = 0;
  let skipped = 0;
  let skippedReason: string | null = null;
  if (existsSync(csv)) {
    const { saved, failed } = await uploadAndSaveBulk(ctx, by, 'real-funds.csv', readFileSync(csv), DEMO_DATA_SAVE);
    funds = saved.length;
    skipped = failed.length;
    const first = failed[0]?.errors;
    skippedReason = first ? ([...first.faults, ...first.warnings].map((e) => e.message)[0] ?? null) : null;
  }
  ctx.log.info({ by: by.id, administrators: added, masterMappings, fundRequests: funds, skipped }, 'demo data populated');
  return { administrators: added, masterMappings, fundRequests: funds, skipped, skippedReason };
}

/**
 * Clears everything but users, settings and reference data, then loads the demo data again.
 * @throws ConflictError while processes or test runs are running
 */
export async function resetDatabase(ctx: AppContext, by: User): Promise<{ removed: Removed; populated: Populated }> {
  await assertIdle(ctx, 'reset the database');
  const removed = await removeWork(ctx, true);
  const populated = await populateDatabase(ctx, by);
  ctx.log.warn({ by: by.id, removed }, 'database reset');
  return { removed, populated };
}

/** Replaces every TPA's master mappings with the shipped ones (changed ones rerun their funds). */
export async function forceMasterMappings(ctx: AppContext, by: User) {
  return { administrators: await forceFixtureMasterMappings(ctx, by) };
}

/**
 * Adds the shipped TPAs of a region.
 * @throws ValidationError for an unknown region
 */
export async function populateAdministrators(ctx: AppContext, region: string): Promise<{ region: string; administrators: string[] }> {
  const code = REGIONS.find((r) => r.code.toLowerCase() === region.trim().toLowerCase())?.code;
  if (!code) throw new ValidationError(`Unknown region '${region}'`, [`Regions are ${REGIONS.map((r) => `${r.code} (${r.alt_code})`).join(', ')}`]);
  return { region: code, administrators: await addShippedAdministrators(ctx, { region: code }) };
}

/**
 * Drops every table and rebuilds the empty schema with its reference data, fixed filters and the
 * administrator; the calling user is created again (same e-mail, name and role) with a new
 * session, since every token is gone.
 * @returns the new session token of the caller and the tables dropped
 * @throws ConflictError while processes or test runs are running; ValidationError on PostgreSQL
 */
export async function dropTables(ctx: AppContext, by: User): Promise<{ dropped: string[]; schemaVersion: number; token: string; expiresAt: string }> {
  const store = storeOf(ctx);
  if (store.dialect === 'postgres')
    throw new ValidationError('Dropping the tables is available on a SQLite data directory only', [
      'On PostgreSQL drop and create the database (dropdb, createdb) and start a node: it applies the migrations and prepares it again',
    ]);
  await assertIdle(ctx, 'drop the tables');
  const { dropped, schemaVersion } = dropAndRebuildSqlite((store.db as unknown as { $client: Database.Database }).$client);
  await seedReferenceData(ctx);
  await ensureFixedFilters(ctx);
  const { db, tables: t } = storeOf(ctx);
  const [me] = await db
    .insert(t.users)
    .values({
      email: by.email,
      username: by.username,
      firstName: by.firstName,
      lastName: by.lastName,
      role: by.role,
      originalRole: by.originalRole,
      acceptedPrivacyVersion: by.acceptedPrivacyVersion,
    })
    .returning();
  if (!me) throw new ConflictError(`${by.email} could not be created again`);
  await ensureAdmin(ctx, ctx.config.adminEmail);
  const session = await issueToken(ctx, me.id, 'session', ctx.config.sessionTtlHours * 3_600_000);
  ctx.log.warn({ by: by.email, dropped: dropped.length, schemaVersion }, 'tables dropped and schema rebuilt');
  return { dropped, schemaVersion, token: session.token, expiresAt: session.expiresAt };
}
