/**
 * Runs one test case in its own workspace through the real pipeline: load the TPA's master
 * mappings, create the fund request, import the inputs, run every queued job, then check each
 * stage against the case's expectations and compare the standardized rows and the audit checks
 * with the expected outputs. Each step is recorded as `{stepId, success, payload | error}`; the
 * workspace is always deleted. With `record` the comparisons are skipped and the outputs returned
 * (the suite generator writes them as the expected files).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { Engine } from '../engine.js';
import { loadFundData } from '../stages/fund-data.js';
import type { LayoutSdmType } from '../../../pipeline/mappings/parse.js';
import { allRows, type QaMapping } from '../../../pipeline/sdm/rows.js';
import type { AppContext } from '../../context.js';
import { fundFiles, importFiles, processes, type Stage } from '../../db/schema/index.js';
import { pipelineJobs } from '../stages/pipeline.js';
import { saveBulkFunds } from '../../services/bulk-upload/bulk-upload.js';
import { importFile } from '../../services/imports/imports.js';
import { readCaseFile, readCaseFileSync } from '../../services/test-runner/case-files.js';
import { compareChecks, compareRows } from '../../services/test-runner/compare.js';
import {
  checksSnapshot,
  readStandardizedCsv,
  toCells,
  writeStandardizedCsv,
  type CalculationValidation,
  type ChecksSnapshot,
} from '../../services/test-runner/outputs.js';
import type { CaseResult, StepError, StepResult } from '../../services/test-runner/plan.js';
import { caseFundRow, caseInputs, expectedDir, type TestCase } from '../../services/test-runner/suites.js';
import { openWorkspace, resolveMappings, type MappingSource, type Workspace } from './workspace.js';

/** Outputs of a recorded run: standardized CSV text per SDM type and the checks snapshot. */
export interface CaseOutputs {
  standardized: Partial<Record<LayoutSdmType, string>>;
  checks: ChecksSnapshot | null;
}
export interface RunCaseOptions {
  mappings: MappingSource;
  signal?: AbortSignal;
  record?: boolean;
  tmpRoot?: string;
  /** The largest file the case may read, in bytes (the server's `maxUploadBytes`; default its default). */
  maxFileBytes?: number;
}

/** Thrown when a run is cancelled between steps or jobs. */
export class RunCancelled extends Error {
  constructor() {
    super('The test run was cancelled');
  }
}

/** A step whose result differs from the expectation: a one-line message and a full report. */
class Mismatch extends Error {
  constructor(
    message: string,
    readonly report: string | null = null,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

const GENERATE = 'generate them with `npx tsx fixtures/scripts/build-test-suites.ts`';

function stepError(err: unknown): StepError {
  if (err instanceof Mismatch) return { message: err.message, traceback: err.report, ...(err.details ? { details: err.details } : {}) };
  const e = err instanceof Error ? err : new Error(String(err));
  const extra = (e as { errors?: unknown[] }).errors?.filter((x) => x !== e.message).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return { message: extra?.length ? `${e.message}: ${extra.join('; ')}` : e.message, traceback: e.stack ?? null };
}

/** Runs the queued jobs one at a time, yielding between jobs and stopping when cancelled. */
async function drain(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  const engine = new Engine(ctx, pipelineJobs);
  let n = 0;
  for (;;) {
    if (signal?.aborted) throw new RunCancelled();
    if (!(await engine.drain(1))) return n;
    n++;
    await new Promise((r) => setImmediate(r));
  }
}

/** Errors of the jobs of a stage. */
function jobErrors(ctx: AppContext, stage: Stage): string[] {
  return ctx.db
    .select()
    .from(processes)
    .where(and(eq(processes.stage, stage), eq(processes.status, 'error')))
    .all()
    .map((p) => `${stage} job ${p.id} failed: ${String(p.payload?.error ?? 'unknown error')}`);
}

function fail(problems: string[], payload: unknown): void {
  if (problems.length)
    throw new Mismatch(problems.length === 1 ? problems[0] : `${problems.length} problems: ${problems[0]}`, problems.join('\n'), { actual: payload });
}

/** Runs one case. `cancelled` is true when the signal stopped it. */
export async function runCase(tc: TestCase, opts: RunCaseOptions): Promise<{ result: CaseResult; outputs: CaseOutputs | null; cancelled: boolean }> {
  const started = performance.now();
  const steps: StepResult[] = [];
  const step = async <T>(stepId: string, fn: () => T | Promise<T>): Promise<T | undefined> => {
    if (opts.signal?.aborted) throw new RunCancelled();
    try {
      const payload = await fn();
      steps.push({ stepId, success: true, payload });
      return payload;
    } catch (err) {
      if (err instanceof RunCancelled) throw err;
      steps.push({ stepId, success: false, error: stepError(err) });
      return undefined;
    }
  };
  let ws: Workspace | null = null;
  let outputs: CaseOutputs | null = null;
  let cancelled = false;
  try {
    if (!tc.def) {
      steps.push({ stepId: 'load-case', success: false, error: { message: tc.loadError ?? 'The case could not be read', traceback: null } });
      return { result: finish(), outputs, cancelled };
    }
    const def = tc.def;
    const mapped = await step('load-mappings', async () => {
      const resolved = await resolveMappings(tc.administratorCode, opts.mappings);
      ws = await openWorkspace({ administratorCode: tc.administratorCode, mappings: resolved, tmpRoot: opts.tmpRoot });
      return { source: resolved.origin, types: Object.keys(resolved.rows) };
    });
    const w = ws as Workspace | null;
    if (!mapped || !w) return { result: finish(), outputs, cancelled };
    const ctx = w.ctx;
    const fund = await step('create-fund-request', async () => {
      const { saved, failed } = await saveBulkFunds(
        ctx,
        w.user,
        { funds: [caseFundRow(tc, opts.maxFileBytes)], requestDate: def.requestDate },
        { overwrite: false, action: 'test-runner' },
      );
      if (failed.length) throw new Mismatch(`The fund request could not be created: ${failed[0].errors.faults.map((f) => f.message).join('; ')}`);
      return { fundRequestId: saved[0].id, fundShortCode: saved[0].fundShortCode, fundName: saved[0].fundName };
    });
    if (!fund) return { result: finish(), outputs, cancelled };
    const imported = await step('import', async () => {
      const views = [];
      const between = () => {
        if (opts.signal?.aborted) throw new RunCancelled();
      };
      for (const f of caseInputs(tc)) {
        const bytes = await readCaseFile(f.path, tc.suiteDir, `Input file ${f.fileName}`, { limit: opts.maxFileBytes, between });
        const v = await importFile(ctx, {
          administratorCode: tc.administratorCode,
          fileName: f.fileName,
          bytes,
          userId: w.user.id,
          source: 'upload',
        });
        views.push({ fileName: v.fileName, importFileId: v.id, size: v.size });
      }
      return views;
    });
    if (!imported) return { result: finish(), outputs, cancelled };
    await drain(ctx, opts.signal);
    const fundId = fund.fundRequestId;

    await step('identification', () => {
      const files = ctx.db
        .select()
        .from(importFiles)
        .all()
        .map((f) => ({
          fileName: f.fileName,
          status: f.status,
          type: f.type,
          error: typeof f.payload?.error === 'string' ? f.payload.error : null,
          attached: Array.isArray(f.payload?.attached)
            ? (f.payload.attached as Array<{ fundRequestId: number; sdmType: string; rows: number }>).filter((a) => a.fundRequestId === fundId)
            : [],
        }));
      const expected =
        def.expect.identification ??
        Object.fromEntries(files.map((f) => [f.fileName, { status: 'Success' as string, type: undefined as string | null | undefined }]));
      const problems = jobErrors(ctx, 'identification');
      for (const [name, e] of Object.entries(expected)) {
        const f = files.find((x) => x.fileName === name);
        if (!f) problems.push(`${name}: not imported`);
        else if (f.status !== e.status) problems.push(`${name}: import status expected ${e.status}, actual ${f.status}${f.error ? ` (${f.error})` : ''}`);
        else if (e.type !== undefined && f.type !== e.type) problems.push(`${name}: identified as ${f.type ?? 'nothing'}, expected ${e.type ?? 'nothing'}`);
      }
      fail(problems, files);
      return { files };
    });

    const inputs = ctx.db
      .select()
      .from(fundFiles)
      .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'input')))
      .all();
    const std = ctx.db
      .select()
      .from(fundFiles)
      .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'standardization')))
      .all();
    const stdErrors = jobErrors(ctx, 'standardization');
    if (stdErrors.length) await step('standardization', () => fail(stdErrors, null));
    const types = [...new Set([...std.map((f) => f.fileType), ...Object.keys(def.expect.standardization ?? {})])] as LayoutSdmType[];
    for (const type of types) {
      await step(`standardization:${type}`, () => {
        const f = std.find((x) => x.fileType === type);
        const e = def.expect.standardization?.[type] ?? { validationStatus: 'Valid' as const };
        if (!f) throw new Mismatch(`${type}: no ${type} file was standardized for the fund (expected ${e.validationStatus})`);
        const v = (f.validation ?? {}) as { QA_Mapping?: QaMapping[]; rowErrors?: unknown[]; rowErrorsTotal?: number };
        const actual = {
          file: inputs.find((i) => i.id === f.sourceFileId)?.fileName ?? null,
          rowCount: f.rowCount ?? 0,
          validationStatus: f.validationStatus,
          qaMapping: (v.QA_Mapping ?? []).map((m) => ({ name: m.name, column: m.column, lines: m.lines })),
          rowErrorsTotal: v.rowErrorsTotal ?? 0,
          rowErrors: (v.rowErrors ?? []).slice(0, 5),
        };
        const problems: string[] = [];
        if (actual.validationStatus !== e.validationStatus)
          problems.push(
            `${type}: validation status expected ${e.validationStatus}, actual ${actual.validationStatus} (${actual.qaMapping.length} unmapped code(s), ${actual.rowErrorsTotal} row error(s))`,
          );
        if (e.rowCount !== undefined && e.rowCount !== actual.rowCount) problems.push(`${type}: expected ${e.rowCount} row(s), actual ${actual.rowCount}`);
        if (e.rowErrorsTotal !== undefined && e.rowErrorsTotal !== actual.rowErrorsTotal)
          problems.push(`${type}: expected ${e.rowErrorsTotal} row error(s), actual ${actual.rowErrorsTotal}`);
        if (e.qaMapping && JSON.stringify(e.qaMapping) !== JSON.stringify(actual.qaMapping))
          problems.push(`${type}: QA_Mapping expected ${JSON.stringify(e.qaMapping)}, actual ${JSON.stringify(actual.qaMapping)}`);
        fail(problems, actual);
        return actual;
      });
    }

    const calc = ctx.db
      .select()
      .from(fundFiles)
      .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'calculation')))
      .get();
    const validation = calc?.validation as CalculationValidation | undefined;
    await step('calculations', () => {
      const errors = jobErrors(ctx, 'calculations');
      if (!validation) throw new Mismatch(errors[0] ?? 'The calculations stage produced no calculation file', errors.join('\n') || null);
      fail(errors, null);
      return { status: validation.status, summary: validation.summary, nav: validation.nav, materiality: validation.materiality };
    });
    if (calc) {
      await step('work-papers', () => {
        const wp = ctx.db
          .select()
          .from(fundFiles)
          .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'work_paper')))
          .get();
        const errors = jobErrors(ctx, 'visualization');
        if (!wp) throw new Mismatch(errors[0] ?? 'No work paper was produced', errors.join('\n') || null);
        fail(errors, null);
        return { fileName: wp.fileName, status: wp.status };
      });
    }

    // a regression case's fund is small: its rows are compared in memory
    const loaded = await loadFundData(ctx, fundId);
    const data = Object.fromEntries(await Promise.all(Object.entries(loaded).map(async ([type, rows]) => [type, await allRows<unknown>(rows)]))) as Record<
      LayoutSdmType,
      Array<Record<string, unknown>>
    >;
    const actualTypes = [...new Set(std.map((f) => f.fileType as LayoutSdmType))];
    if (opts.record) {
      outputs = {
        standardized: Object.fromEntries(actualTypes.map((t) => [t, writeStandardizedCsv(t, data[t] ?? [])])),
        checks: validation ? checksSnapshot(validation) : null,
      };
    } else {
      await compareOutputs(tc, step, data, actualTypes, validation, opts.maxFileBytes);
    }
  } catch (err) {
    if (!(err instanceof RunCancelled)) throw err;
    cancelled = true;
    steps.push({ stepId: 'cancelled', success: false, error: { message: err.message, traceback: null } });
  } finally {
    (ws as Workspace | null)?.dispose();
  }
  return { result: finish(), outputs, cancelled };

  function finish(): CaseResult {
    return { id: tc.id, title: tc.title, success: steps.length > 0 && steps.every((s) => s.success), time: Math.round(performance.now() - started), steps };
  }
}

type StepFn = <T>(stepId: string, fn: () => T | Promise<T>) => Promise<T | undefined>;

/** The compare steps: one per standardized SDM type, then the checks. */
async function compareOutputs(
  tc: TestCase,
  step: StepFn,
  data: Record<LayoutSdmType, Array<Record<string, unknown>>>,
  actualTypes: LayoutSdmType[],
  validation: CalculationValidation | undefined,
  limit: number | undefined,
): Promise<void> {
  const dir = expectedDir(tc);
  const read = (file: string, what: string) => readCaseFileSync(file, tc.suiteDir, what, limit).toString('utf8');
  const stdDir = join(dir, 'standardized');
  const checksFile = join(dir, 'checks.json');
  if (!existsSync(stdDir) && !existsSync(checksFile)) {
    await step('compare-standardized', () => {
      throw new Mismatch(`No expected outputs in ${dir}: ${GENERATE}`);
    });
    return;
  }
  const expectedTypes = existsSync(stdDir)
    ? readdirSync(stdDir)
        .filter((f) => f.endsWith('.csv'))
        .map((f) => f.replace(/\.csv$/, '') as LayoutSdmType)
    : [];
  for (const type of [...new Set([...expectedTypes, ...actualTypes])]) {
    await step(`compare-standardized:${type}`, () => {
      const rows = data[type] ?? [];
      if (!expectedTypes.includes(type))
        throw new Mismatch(`${type}: the pipeline produced ${rows.length} row(s) but there is no expected/standardized/${type}.csv (${GENERATE})`);
      const expected = readStandardizedCsv(type, read(join(stdDir, `${type}.csv`), `expected/standardized/${type}.csv`));
      if (!actualTypes.includes(type)) throw new Mismatch(`${type}: expected ${expected.length} row(s), the pipeline produced no ${type} file`);
      const cmp = compareRows(
        type,
        expected,
        toCells(type, rows),
        rows.map((r) => (typeof r.line === 'number' ? r.line : null)),
      );
      if (!cmp.equal) {
        throw new Mismatch(cmp.message, cmp.report, {
          differingRows: cmp.differingRows,
          missingRows: cmp.missingRows,
          extraRows: cmp.extraRows,
          differences: cmp.differences,
          missing: cmp.missing,
          extra: cmp.extra,
        });
      }
      return { rows: cmp.actualRows };
    });
  }
  await step('compare-checks', () => {
    if (!existsSync(checksFile)) {
      if (validation) throw new Mismatch(`The pipeline computed ${validation.QA_Rec.length} check item(s) but there is no expected/checks.json (${GENERATE})`);
      return { checks: 0 };
    }
    const expected = JSON.parse(read(checksFile, 'expected/checks.json')) as ChecksSnapshot;
    if (!validation) throw new Mismatch(`Expected checks (status ${expected.status}), the pipeline computed none`);
    const diffs = compareChecks(expected, checksSnapshot(validation));
    if (diffs.length) throw new Mismatch(`checks: ${diffs.length} difference(s); first: ${diffs[0]}`, diffs.join('\n'), { differences: diffs });
    return { status: validation.status, summary: validation.summary, nav: validation.nav };
  });
}
