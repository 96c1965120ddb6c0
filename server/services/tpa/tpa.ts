/**
 * Onboarding a TPA from the command line or the API (docs/onboarding.md): create the
 * administrator, then save a whole folder of master mappings, each csv named after its mapping
 * type. The same rules as self-onboarding (auditor spec 2.4, section 5 name rule): the code is
 * checked by `checkTpaName`, mapping files by `readMappingFiles`, and each saved mapping becomes a
 * new version through `createMapping`.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { createMapping } from '../mappings/mappings.js';
import { checkTpaName, readMappingFiles, type UploadedCsv } from '../sdm-upload/sdm-upload.js';

/** Longest display name of a TPA (characters). */
export const TPA_NAME_MAX = 300;

/** A TPA as the CLI and the API show it. */
export interface TpaView {
  id: number;
  code: string;
  name: string;
  region: string | null;
  selfOnboarded: boolean;
}

/**
 * Creates a TPA (administrator) without mappings.
 * @param input.code lowercase letters, digits, underscore; 1 to 50 characters (`rules/names.ts`)
 * @param input.name display name, 1 to 300 characters
 * @param input.region optional region (e.g. AMER, EMEA)
 * @throws ValidationError with the name rule's message, 'Administrator already exist', or a missing / too long name
 */
export async function createTpa(ctx: AppContext, input: { code: string; name: string; region?: string | null }): Promise<TpaView> {
  const code = input.code.trim();
  const check = await checkTpaName(ctx, code);
  if (check.status !== 'New') throw new ValidationError(check.message);
  const name = input.name?.trim() ?? '';
  if (!name) throw new ValidationError('The TPA name is required');
  if (name.length > TPA_NAME_MAX) throw new ValidationError(`The TPA name is longer than ${TPA_NAME_MAX} characters`);
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .insert(t.administrators)
    .values({ code, name, region: input.region?.trim() || null })
    .returning();
  return { id: row.id, code: row.code, name: row.name, region: row.region, selfOnboarded: row.selfOnboarded };
}

/** One mapping saved by `uploadMasterMappings`. */
export interface SavedMasterMapping {
  type: string;
  fileName: string;
  id: number;
  version: number | null;
}

/**
 * Saves master mappings of a TPA from csv files named after their mapping types
 * (`account_mapping.csv`, ...). Every file is checked before any is saved.
 * @param files at least one; at most one per mapping type
 * @param reason recorded with each new version (default `uploaded <file name>`)
 * @returns the mappings saved, in file order (a file identical to the current content keeps its version)
 * @throws NotFoundError for an unknown TPA; ValidationError listing every file and line in error, files named after no mapping type, or a type given twice
 */
export async function uploadMasterMappings(ctx: AppContext, user: User, code: string, files: UploadedCsv[], reason?: string): Promise<SavedMasterMapping[]> {
  const { db, tables: t } = storeOf(ctx);
  const [admin] = await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.code, code)).limit(1);
  if (!admin) throw new NotFoundError(`No administrator with code: ${code}`);
  if (!files.length) throw new ValidationError('No mapping files: give csv files named after their mapping type (e.g. account_mapping.csv)');
  const read = readMappingFiles(files, ctx.config.maxUploadRows);
  const types = read.rows.map((r) => r.type);
  const twice = types.filter((t, i) => types.indexOf(t) !== i);
  if (twice.length) throw new ValidationError(`More than one file of type ${[...new Set(twice)].join(', ')}`);
  const invalid = Object.values(read.results).filter((r) => !r.valid);
  if (invalid.length)
    throw new ValidationError(
      `${invalid.length} mapping file(s) in error; nothing was saved`,
      invalid.flatMap((r) => r.errors.map((e) => `${r.fileName}: ${e}`)),
      invalid.reduce((n, r) => n + r.totalErrorsFound, 0),
    );
  const out: SavedMasterMapping[] = [];
  for (const [i, f] of files.entries()) {
    const type = read.rows[i].type;
    const saved = await createMapping(ctx, user, {
      administrator: code,
      mappingType: type,
      mappingMode: 'master',
      rationale: reason,
      fileName: f.fileName,
      bytes: f.bytes,
    });
    out.push({ type, fileName: f.fileName, id: saved.id, version: (saved as { version?: number | null }).version ?? null });
  }
  return out;
}
