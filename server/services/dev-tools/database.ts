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
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, getTableName, inArray, sql } from 'drizzle-orm';
import { addShippedAdministrators, ensureFixedFilters } from '../../bootstrap.js';
import type { AppContext } from '../../context.js';
import { applyMigrations } from '../../db/client.js';
import {
  administrators,
  exportFiles,
  fundCodes,
  fundFiles,
  fundMappings,
  fundRequests,
  importFiles,
  mappings,
  mappingVersions,
  mappingVersionUses,
  orchestrationLogs,
  pbiInputFiles,
  processes,
  recipients,
  savedFilters,
  sdmChunks,
  sdmUploadFiles,
  sdmUploads,
  settings,
  sweptFiles,
  testRuns,
  trail,
  unidentifiedFiles,
  unmatchedFiles,
  users,
} from '../../db/schema/index.js';
import { ConflictError, ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { issueToken, type User } from '../auth/tokens.js';
import { uploadAndSaveBulk } from '../bulk-upload/bulk-upload.js';
import { forceFixtureMasterMappings } from '../mappings/fixtures.js';
import { seedFixtureMappings } from '../mappings/store.js';
import { REGIONS } from '../reference-data/catalog/lists.js';
import { seedReferenceData } from '../reference-data/reference-data.js';
import { ensureAdmin } from '../users/users.js';

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
function assertIdle(ctx: AppContext, action: string): void {
  const running = ctx.db.select({ n: sql<number>`count(*)` }).from(processes).where(eq(processes.status, 'running')).get()?.n ?? 0;
  const tests =
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(testRuns)
      .where(inArray(testRuns.status, ['pending', 'running']))
      .get()?.n ?? 0;
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
  sdmChunks,
  fundMappings,
  fundFiles,
  processes,
  orchestrationLogs,
  trail,
  recipients,
  fundCodes,
  unidentifiedFiles,
  unmatchedFiles,
  sweptFiles,
  sdmUploadFiles,
  sdmUploads,
  exportFiles,
  testRuns,
  pbiInputFiles,
  importFiles,
] as const;

/** Removes the audit work in one transaction (see the module comment). */
function removeWork(ctx: AppContext, alsoTpas: boolean): Removed {
  const removed: Removed = {};
  ctx.db.transaction((tx) => {
    for (const t of WORK_TABLES) removed[getTableName(t)] = tx.delete(t).run().changes;
    removed.fund_requests = tx.delete(fundRequests).run().changes;
    removed.mapping_version_uses = tx.delete(mappingVersionUses).run().changes;
    const custom = tx.select({ id: mappings.id }).from(mappings).where(eq(mappings.kind, 'custom'));
    tx.delete(mappingVersions)
      .where(alsoTpas ? undefined : inArray(mappingVersions.mappingId, custom))
      .run();
    removed.custom_mappings = tx.delete(mappings).where(eq(mappings.kind, 'custom')).run().changes;
    removed.saved_filters = tx.delete(savedFilters).where(eq(savedFilters.fixed, false)).run().changes;
    tx.delete(settings).where(eq(settings.key, 'demo')).run();
    if (alsoTpas) {
      removed.master_mappings = tx.delete(mappings).run().changes;
      removed.administrators = tx.delete(administrators).run().changes;
    }
  });
  return removed;
}

/**
 * Removes the audit work, keeping users, settings, reference data, TPAs and master mappings.
 * @throws ConflictError while processes or test runs are running
 */
export function clearDatabase(ctx: AppContext, by: User): { removed: Removed } {
  assertIdle(ctx, 'clear the database');
  const removed = removeWork(ctx, false);
  ctx.log.warn({ by: by.id, removed }, 'database cleared');
  return { removed };
}

/**
 * Adds the demo data that is missing: shipped TPAs, their master mappings, the real fund requests.
 */
export function populateDatabase(ctx: AppContext, by: User): Populated {
  const added = addShippedAdministrators(ctx);
  const masterMappings = seedFixtureMappings(ctx);
  const csv = join(fixturesDir(), 'fund-requests', 'real-funds.csv');
  let funds = 0;
  let skipped = 0;
  let skippedReason: string | null = null;
  if (existsSync(csv)) {
    const { saved, failed } = uploadAndSaveBulk(ctx, by, 'real-funds.csv', readFileSync(csv));
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
export function resetDatabase(ctx: AppContext, by: User): { removed: Removed; populated: Populated } {
  assertIdle(ctx, 'reset the database');
  const removed = removeWork(ctx, true);
  const populated = populateDatabase(ctx, by);
  ctx.log.warn({ by: by.id, removed }, 'database reset');
  return { removed, populated };
}

/** Replaces every TPA's master mappings with the shipped ones (changed ones rerun their funds). */
export function forceMasterMappings(ctx: AppContext, by: User) {
  return { administrators: forceFixtureMasterMappings(ctx, by) };
}

/**
 * Adds the shipped TPAs of a region.
 * @throws ValidationError for an unknown region
 */
export function populateAdministrators(ctx: AppContext, region: string): { region: string; administrators: string[] } {
  const code = REGIONS.find((r) => r.code.toLowerCase() === region.trim().toLowerCase())?.code;
  if (!code) throw new ValidationError(`Unknown region '${region}'`, [`Regions are ${REGIONS.map((r) => `${r.code} (${r.alt_code})`).join(', ')}`]);
  return { region: code, administrators: addShippedAdministrators(ctx, { region: code }) };
}

/**
 * Drops every table and rebuilds the empty schema with its reference data, fixed filters and the
 * administrator; the calling user is created again (same e-mail, name and role) with a new
 * session, since every token is gone.
 * @returns the new session token of the caller and the tables dropped
 * @throws ConflictError while processes or test runs are running
 */
export function dropTables(ctx: AppContext, by: User): { dropped: string[]; schemaVersion: number; token: string; expiresAt: string } {
  assertIdle(ctx, 'drop the tables');
  const { sqlite } = ctx;
  const list = () =>
    sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{
      name: string;
      sql: string | null;
    }>;
  const dropped: string[] = [];
  sqlite.pragma('foreign_keys = OFF');
  try {
    sqlite
      .transaction(() => {
        // virtual tables first: dropping one drops its shadow tables
        for (const t of list().filter((x) => /^CREATE VIRTUAL TABLE/i.test(x.sql ?? ''))) {
          sqlite.exec(`DROP TABLE "${t.name}"`);
          dropped.push(t.name);
        }
        for (const t of list()) {
          sqlite.exec(`DROP TABLE "${t.name}"`);
          dropped.push(t.name);
        }
      })
      .immediate();
  } finally {
    sqlite.pragma('foreign_keys = ON');
  }
  const { schemaVersion } = applyMigrations(sqlite);
  seedReferenceData(ctx);
  ensureFixedFilters(ctx);
  const me = ctx.db
    .insert(users)
    .values({
      email: by.email,
      username: by.username,
      firstName: by.firstName,
      lastName: by.lastName,
      role: by.role,
      originalRole: by.originalRole,
      acceptedPrivacyVersion: by.acceptedPrivacyVersion,
    })
    .returning()
    .get();
  ensureAdmin(ctx, ctx.config.adminEmail);
  const session = issueToken(ctx, me.id, 'session', ctx.config.sessionTtlHours * 3_600_000);
  ctx.log.warn({ by: by.email, dropped: dropped.length, schemaVersion }, 'tables dropped and schema rebuilt');
  return { dropped, schemaVersion, token: session.token, expiresAt: session.expiresAt };
}
