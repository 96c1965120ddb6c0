/**
 * Test suites on disk (`fixtures/test-suites/<administrator code>/<id>/`): each case has a
 * `case.json` (title, description, fund request, input files, stage expectations), its `inputs/`
 * and the expected outputs in `expected/` (`standardized/<sdm type>.csv`, `checks.json`), written by
 * `fixtures/scripts/build-test-suites.ts`. A case whose `case.json` cannot be read is still listed,
 * with `loadError`, and fails when run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { fixturesDir } from '../../paths.js';

const qaMappingSchema = z.object({ name: z.string(), column: z.string(), lines: z.array(z.number().int()) });

/** What a case expects of the stages besides its expected output files. */
const expectSchema = z.object({
  /** Per imported file name: import status (default every file `Success`) and identified type. */
  identification: z.record(z.string(), z.object({ status: z.string(), type: z.string().nullable().optional() })).optional(),
  /** Per SDM type: validation status (default `Valid`), row count, row errors, QA_Mapping entries. */
  standardization: z
    .record(
      z.string(),
      z.object({
        validationStatus: z.enum(['Valid', 'Invalid']),
        rowCount: z.number().int().optional(),
        rowErrorsTotal: z.number().int().optional(),
        qaMapping: z.array(qaMappingSchema).optional(),
      }),
    )
    .optional(),
});

const fundRequestSchema = z.union([
  z.object({ ref: z.string().min(1), fundShortCode: z.string().min(1) }).strict(),
  z.record(z.string(), z.union([z.string(), z.number()])),
]);

export const caseSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  title: z.string().min(1),
  description: z.string().default(''),
  /** A bulk-upload template row, or `{ref: 'real-funds.csv', fundShortCode}` (a file of fixtures/fund-requests). */
  fundRequest: fundRequestSchema,
  /** Request date of the fund request (default today). */
  requestDate: z.string().optional(),
  /** A plain name is a file in `./inputs`; a path is relative to the case folder. */
  inputs: z.array(z.string().min(1)).min(1),
  expect: expectSchema.default({}),
});
export type CaseDef = z.infer<typeof caseSchema>;
export type CaseExpect = z.infer<typeof expectSchema>;

/** One test case of a suite. */
export interface TestCase {
  administratorCode: string;
  id: string;
  title: string;
  description: string;
  dir: string;
  def: CaseDef | null;
  /** Why `case.json` could not be used. */
  loadError: string | null;
}

export interface Suite {
  administratorCode: string;
  tests: TestCase[];
}

/** Folder of the shipped suites. */
export const defaultSuitesDir = () => join(fixturesDir(), 'test-suites');

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
const byId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** Reads one case folder. */
export function loadCase(administratorCode: string, dir: string): TestCase {
  const id = basename(dir);
  const base = { administratorCode, id, title: `Case ${id}`, description: '', dir, def: null, loadError: null };
  const file = join(dir, 'case.json');
  try {
    const parsed = caseSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success)
      return { ...base, loadError: `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` };
    if (parsed.data.id !== id)
      return { ...base, title: parsed.data.title, loadError: `${file}: id '${parsed.data.id}' does not match the folder name '${id}'` };
    return { ...base, title: parsed.data.title, description: parsed.data.description, def: parsed.data };
  } catch (err) {
    return { ...base, loadError: `${file}: ${(err as Error).message}` };
  }
}

/** Every suite under a folder: administrator folders holding case folders with a `case.json`. */
export function loadSuites(root = defaultSuitesDir()): Suite[] {
  if (!isDir(root)) return [];
  return readdirSync(root)
    .filter((code) => isDir(join(root, code)))
    .sort()
    .map((code) => ({
      administratorCode: code,
      tests: readdirSync(join(root, code))
        .filter((id) => existsSync(join(root, code, id, 'case.json')))
        .sort(byId)
        .map((id) => loadCase(code, join(root, code, id))),
    }))
    .filter((s) => s.tests.length > 0);
}

/** Absolute paths and file names of a case's inputs. */
export function caseInputs(tc: TestCase): Array<{ fileName: string; path: string }> {
  return (tc.def?.inputs ?? []).map((name) => {
    const path = /[\\/]/.test(name) ? resolve(tc.dir, name) : join(tc.dir, 'inputs', name);
    return { fileName: basename(path), path };
  });
}

/**
 * The bulk-upload row of a case's fund request, with `tpa` set to the suite's administrator.
 * @throws Error when a referenced file or fund code is not found
 */
export function caseFundRow(tc: TestCase): Record<string, string> {
  const fr = tc.def!.fundRequest;
  let row: Record<string, string>;
  if ('ref' in fr && typeof fr.ref === 'string' && 'fundShortCode' in fr) {
    const file = join(fixturesDir(), 'fund-requests', String(fr.ref));
    if (!existsSync(file)) throw new Error(`fundRequest.ref: ${file} does not exist`);
    const rows = parse(readFileSync(file), { columns: true, bom: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    const code = String(fr.fundShortCode);
    const found = rows.find((r) => r.fundShortCode === code && r.tpa === tc.administratorCode) ?? rows.find((r) => r.fundShortCode === code);
    if (!found) throw new Error(`fundRequest: no row with fundShortCode ${code} in ${file}`);
    row = found;
  } else {
    row = Object.fromEntries(Object.entries(fr).map(([k, v]) => [k, String(v)]));
  }
  return { ...row, tpa: tc.administratorCode };
}

/** Folder of a case's expected outputs. */
export const expectedDir = (tc: TestCase) => join(tc.dir, 'expected');
