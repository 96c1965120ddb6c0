/**
 * Test suites on disk (`fixtures/test-suites/<administrator code>/<id>/`): each case has a
 * `case.json` (title, description, fund request, input files, stage expectations), its `inputs/`
 * and the expected outputs in `expected/` (`standardized/<sdm type>.csv`, `checks.json`), written by
 * `fixtures/scripts/build-test-suites.ts`. A case whose `case.json` cannot be read is still listed,
 * with `loadError`, and fails when run. A case reads only regular files inside its suite's folder
 * (`case-files.ts`), and a fund request by `ref` only a list of `fixtures/fund-requests`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { fixturesDir } from '../../paths.js';
import { CaseFileError, pathInside, readCaseFileSync } from './case-files.js';

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

/**
 * A bulk-upload template row, or `{ref, fundShortCode}`: the row of a list in
 * `fixtures/fund-requests` (`ref` its plain file name, never a path).
 */
const fundRequestSchema = z.record(z.string(), z.union([z.string(), z.number()])).superRefine((row, check) => {
  if (!('ref' in row)) return;
  if (typeof row.ref !== 'string' || !/^[^\\/]+$/.test(row.ref) || row.ref === '..')
    check.addIssue({ code: 'custom', path: ['ref'], message: 'must be the name of a file in fixtures/fund-requests, without a folder' });
  const others = Object.keys(row).filter((k) => k !== 'ref' && k !== 'fundShortCode');
  if (!row.fundShortCode || others.length)
    check.addIssue({ code: 'custom', message: `with ref, only fundShortCode is given${others.length ? ` (not ${others.join(', ')})` : ''}` });
});

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
  /** The suite's folder (`<suites>/<administrator code>`): the case reads only files inside it. */
  suiteDir: string;
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

/** The largest `case.json` read (bytes): a case's description and inline fund request. */
const CASE_JSON_LIMIT = 1024 * 1024;

/**
 * Reads one case folder.
 * @param suiteDir the suite's folder the case may read in (default the folder holding `dir`)
 */
export function loadCase(administratorCode: string, dir: string, suiteDir = dirname(dir)): TestCase {
  const id = basename(dir);
  const base = { administratorCode, id, title: `Case ${id}`, description: '', dir, suiteDir, def: null, loadError: null };
  const file = join(dir, 'case.json');
  try {
    const parsed = caseSchema.safeParse(JSON.parse(readCaseFileSync(file, suiteDir, 'case.json', CASE_JSON_LIMIT).toString('utf8')));
    if (!parsed.success)
      return { ...base, loadError: `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` };
    if (parsed.data.id !== id)
      return { ...base, title: parsed.data.title, loadError: `${file}: id '${parsed.data.id}' does not match the folder name '${id}'` };
    return { ...base, title: parsed.data.title, description: parsed.data.description, def: parsed.data };
  } catch (err) {
    return { ...base, loadError: err instanceof CaseFileError ? err.message : `${file}: ${(err as Error).message}` };
  }
}

/**
 * Every suite under a folder: administrator folders holding case folders with a `case.json`. A
 * suite folder that lies elsewhere (a link out of `root`) gives cases that fail with the reason.
 */
export function loadSuites(root = defaultSuitesDir()): Suite[] {
  if (!isDir(root)) return [];
  return readdirSync(root)
    .filter((code) => isDir(join(root, code)))
    .sort()
    .map((code) => {
      const suiteDir = join(root, code);
      let outside: string | null = null;
      try {
        pathInside(suiteDir, root, `The suite folder ${code}`);
      } catch (err) {
        outside = (err as Error).message;
      }
      return {
        administratorCode: code,
        tests: readdirSync(suiteDir)
          .filter((id) => existsSync(join(suiteDir, id, 'case.json')))
          .sort(byId)
          .map((id) => {
            const tc = loadCase(code, join(suiteDir, id), suiteDir);
            return outside ? { ...tc, def: null, loadError: outside } : tc;
          }),
      };
    })
    .filter((s) => s.tests.length > 0);
}

/** Absolute paths and file names of a case's inputs. */
export function caseInputs(tc: TestCase): Array<{ fileName: string; path: string }> {
  return (tc.def?.inputs ?? []).map((name) => {
    const path = /[\\/]/.test(name) ? resolve(tc.dir, name) : join(tc.dir, 'inputs', name);
    return { fileName: basename(path), path };
  });
}

/** Folder of the shipped fund-request lists a case's `fundRequest.ref` names. */
const fundRequestsDir = () => join(fixturesDir(), 'fund-requests');

/**
 * The bulk-upload row of a case's fund request, with `tpa` set to the suite's administrator.
 * @param limit the largest fund-request list read (bytes)
 * @throws Error when a referenced file or fund code is not found, or the file may not be read
 */
export function caseFundRow(tc: TestCase, limit?: number): Record<string, string> {
  const fr = tc.def!.fundRequest;
  let row: Record<string, string>;
  if ('ref' in fr && typeof fr.ref === 'string' && 'fundShortCode' in fr) {
    const file = join(fundRequestsDir(), String(fr.ref));
    if (!existsSync(file)) throw new Error(`fundRequest.ref: ${file} does not exist`);
    const bytes = readCaseFileSync(file, fundRequestsDir(), 'fundRequest.ref', limit);
    const rows = parse(bytes, { columns: true, bom: true, skip_empty_lines: true }) as Array<Record<string, string>>;
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
