/**
 * Derived display fields of a fund request (delivery spec section 4 "Display derivations",
 * auditor spec sections 3-4, DOMAIN.md section 5): file counts, received share, lateness and the
 * labels the grids show. Pure functions, plus `loadFundFacts`, which reads everything they need for
 * many funds at once (a fixed number of queries per 500 funds, never one per fund).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { anyOfPlaceholder, idsValue, jsonMember, jsonRows, runPrepared, storeOf, type DataStore } from '../../db/dialect.js';
import * as rules from '../../../rules/index.js';
import { todayIso } from '../../lib/dates.js';
import { dataStatusLabel, parentDisplay, processStatusLabel, receivedShare, workPaperStatusLabel } from '../../../rules/index.js';

/** Share of required input files received below which a fund past its due date is late (%). */
export { LATE_THRESHOLD_PCT } from '../../../rules/index.js';

/** Input-file states counted per fund (the `status` column of `fund_files` rows of kind input). */
export const DATA_STATES = ['raw', 'pending', 'processing', 'processed', 'assigned', 'error', 'onBoarding'] as const;
export type DataState = (typeof DATA_STATES)[number];

/** Counts of a fund's required input files by state (auditor spec "Fund counts"). */
export interface DataStatusCounts {
  rawCount: number;
  pendingCount: number;
  processingCount: number;
  processedCount: number;
  assignedCount: number;
  errorCount: number;
  onBoardingCount: number;
  /** required types whose newest file is disabled */
  notRequiredCount: number;
  /** work papers neither reviewed nor disabled */
  notReviewedCount: number;
  /** required input types (received or not) */
  total: number;
}

/** Counts of a fund's work papers (`fund_files` of kind work_paper). */
export interface WorkPaperStatusCounts {
  total: number;
  /** reviewed and not disabled */
  reviewedCount: number;
  /** neither reviewed nor disabled */
  notReviewedCount: number;
  /** disabled (not required) */
  notRequiredCount: number;
}

/** The newest input file of one SDM type. */
export interface InputFileState {
  status: string;
  disabled: boolean;
}

/** Required SDM input types of a job type: TB and holdings always; transactions and share capital unless SOI_ONLY. */
export function requiredInputTypes(jobType: string | null | undefined): string[] {
  return jobType?.toUpperCase() === 'SOI_ONLY' ? ['trial_balance', 'holdings'] : ['trial_balance', 'holdings', 'transactions', 'share_capital'];
}

/**
 * Counts required input files by the state of the newest file of each type; a type with no file
 * counts in `total` only; a disabled newest file counts as not required.
 */
export function computeDataStatusCounts(
  required: string[],
  newestInputs: ReadonlyMap<string, InputFileState>,
  workPapers: WorkPaperStatusCounts,
): DataStatusCounts {
  const counts: DataStatusCounts = {
    rawCount: 0,
    pendingCount: 0,
    processingCount: 0,
    processedCount: 0,
    assignedCount: 0,
    errorCount: 0,
    onBoardingCount: 0,
    notRequiredCount: 0,
    notReviewedCount: workPapers.notReviewedCount,
    total: required.length,
  };
  for (const type of required) {
    const file = newestInputs.get(type);
    if (!file) continue;
    if (file.disabled) counts.notRequiredCount++;
    else if ((DATA_STATES as readonly string[]).includes(file.status)) counts[`${file.status as DataState}Count`]++;
  }
  return counts;
}

/** Whether a data due date (ISO date) is before today. */
export function isDuePast(dueDate: string | null | undefined, today = todayIso()): boolean {
  return rules.isDuePast(dueDate, today);
}

/** Late: due date past, status not Issued, received share under 80% (DOMAIN.md section 5). */
export function isLate(fund: { dueDate: string | null; status: string | null }, share: number, today = todayIso()): boolean {
  return rules.isLate(fund, share, today);
}

// the display labels are the rules module's (spec section 4, both documents)
export {
  DATA_REQUEST_LABELS,
  dataRequestStatusLabel,
  dataStatusLabel,
  parentDisplay,
  processStatusLabel,
  receivedShare,
  statusLabel,
  workPaperStatusLabel,
} from '../../../rules/index.js';

/** Everything the derivations need about one fund, loaded in batches. */
export interface FundFacts {
  mainCode: string | null;
  alternateCodes: string[];
  newestInputs: Map<string, InputFileState>;
  workPapers: WorkPaperStatusCounts;
  /** a calculation file's validation has aggDataOversized */
  oversized: boolean;
  /** an output file (standardization, calculation, work paper) is a .csv */
  hasCsvOutputs: boolean;
  /** processes pending or running */
  runningProcesses: Array<{ status: string; stage: string }>;
  /** any process done or at the visualization stage */
  processReady: boolean;
  /** the newest process of some stage failed */
  processError: boolean;
  /** status of the newest calculations process */
  calculationStatus: string | null;
  children: number[];
  mappings: number[];
}

const CHUNK = 500;
function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const emptyFacts = (): FundFacts => ({
  mainCode: null,
  alternateCodes: [],
  newestInputs: new Map(),
  workPapers: { total: 0, reviewedCount: 0, notReviewedCount: 0, notRequiredCount: 0 },
  oversized: false,
  hasCsvOutputs: false,
  runningProcesses: [],
  processReady: false,
  processError: false,
  calculationStatus: null,
  children: [],
  mappings: [],
});

/**
 * The statement of `loadFundFacts`: the codes, files, processes, children and mappings of the funds
 * whose ids are the placeholder `ids` (`idsValue`), each table's rows as one JSON array
 * (`jsonRows`), in one round trip. Its SQL text never changes, so it is prepared once
 * (`runPrepared`). Before, five statements each sent their rows value by value, which on
 * PostgreSQL cost the node more than the page's query itself.
 */
const factsQuery = (store: DataStore) => {
  const { fundCodes, fundFiles, processes, fundRequests, fundMappings } = store.tables;
  /** The rows of `table` whose `fund` column is one of the page's ids (and pass `also`), as `jsonRows`. */
  const ofPage = (columns: SQLWrapper[], table: SQLWrapper, fund: SQLWrapper, orderBy: SQLWrapper, also?: SQL) =>
    jsonRows(store, columns, table, and(anyOfPlaceholder(store, fund), also), orderBy);
  return store.db
    .select({
      codes: ofPage([fundCodes.fundRequestId, fundCodes.code, fundCodes.main], fundCodes, fundCodes.fundRequestId, fundCodes.id),
      // the files of the kinds the grids count
      files: ofPage(
        [
          fundFiles.id,
          fundFiles.fundRequestId,
          fundFiles.kind,
          fundFiles.fileType,
          fundFiles.fileName,
          fundFiles.status,
          fundFiles.disabled,
          fundFiles.reviewed,
          // only the flag of a calculation's validation, read from calculations alone: a validation
          // document holds the file's QA items (megabytes), which other kinds need not unpack
          sql`case when ${fundFiles.kind} = 'calculation' then ${jsonMember(store, fundFiles.validation, 'aggDataOversized')} end`,
        ],
        fundFiles,
        fundFiles.fundRequestId,
        fundFiles.id,
        inArray(fundFiles.kind, ['input', 'work_paper', 'standardization', 'calculation']),
      ),
      processes: ofPage([processes.fundRequestId, processes.stage, processes.status], processes, processes.fundRequestId, processes.id),
      children: ofPage([fundRequests.id, fundRequests.parentId], fundRequests, fundRequests.parentId, fundRequests.id),
      mappings: ofPage([fundMappings.fundRequestId, fundMappings.mappingId], fundMappings, fundMappings.fundRequestId, fundMappings.mappingId),
    })
    .from(sql`(select 1) as one`);
};

/** The rows of `factsQuery`, by table: the values of each row in the order of its columns there. */
interface FactRows {
  codes: Array<[fund: number, code: string, main: boolean | number]>;
  files: Array<
    [
      id: number,
      fund: number,
      kind: string,
      type: string,
      name: string,
      status: string,
      disabled: boolean | number,
      reviewed: boolean | number,
      oversized: unknown,
    ]
  >;
  processes: Array<[fund: number, stage: string, status: string]>;
  children: Array<[id: number, parent: number]>;
  mappings: Array<[fund: number, mapping: number]>;
}

/**
 * Loads the facts of many funds: one prepared statement per 500 ids (inside a `transaction`, in it).
 * @returns the facts of every id asked for (empty facts for an unknown id)
 */
export async function loadFundFacts(ctx: AppContext, ids: number[]): Promise<Map<number, FundFacts>> {
  const facts = new Map<number, FundFacts>(ids.map((id) => [id, emptyFacts()]));
  const of = (id: number | null) => facts.get(id as number)!;
  const store = storeOf(ctx);
  for (const part of chunks([...new Set(ids)])) {
    const [json] = await runPrepared(ctx, 'fund_audit_facts', factsQuery, { ids: idsValue(store, part) });
    const rows = Object.fromEntries(Object.entries(json!).map(([k, v]) => [k, JSON.parse(v)])) as unknown as FactRows;
    for (const [f, code, main] of rows.codes) {
      if (main && of(f).mainCode === null) of(f).mainCode = code;
      else of(f).alternateCodes.push(code);
    }
    // the page's files in one read: the newest input of each type, the work papers' counts,
    // whether an output is a .csv, whether a calculation was too large
    const newestInput = new Map<string, number>();
    for (const [id, f, kind, type, name, status, disabled, reviewed, oversized] of rows.files) {
      const x = of(f);
      if (kind === 'input') {
        const key = `${f}\u0000${type}`;
        if ((newestInput.get(key) ?? -1) < id) {
          newestInput.set(key, id);
          x.newestInputs.set(type, { status, disabled: !!disabled });
        }
        continue;
      }
      if (kind === 'work_paper') {
        const w = x.workPapers;
        w.total++;
        if (disabled) w.notRequiredCount++;
        else if (reviewed) w.reviewedCount++;
        else w.notReviewedCount++;
      }
      // true, 1 or 'true' as stored; PostgreSQL's ->> answers them as text
      if (kind === 'calculation' && [true, 1, 'true', '1'].includes(oversized as never)) x.oversized = true;
      if (name.toLowerCase().endsWith('.csv')) x.hasCsvOutputs = true;
    }
    // the page's processes in id order: running ones, whether any is ready, and the newest of each
    // stage (an error there; the calculations' status)
    const newestStage = new Map<number, Map<string, string>>();
    for (const [f, stage, status] of rows.processes) {
      const x = of(f);
      if (status === 'pending' || status === 'running') x.runningProcesses.push({ status, stage });
      if (status === 'done' || stage === 'visualization') x.processReady = true;
      let stages = newestStage.get(f);
      if (!stages) newestStage.set(f, (stages = new Map()));
      stages.set(stage, status);
    }
    for (const [f, stages] of newestStage) {
      const x = of(f);
      for (const [stage, status] of stages) {
        if (status === 'error') x.processError = true;
        if (stage === 'calculations') x.calculationStatus = status;
      }
    }
    for (const [id, parent] of rows.children) of(parent).children.push(id);
    for (const [f, mapping] of rows.mappings) of(f).mappings.push(mapping);
  }
  return facts;
}

/** The derived display fields of one fund from its row and facts. */
export interface DerivedFields {
  dataStatusCounts: DataStatusCounts;
  workPaperStatusCounts: WorkPaperStatusCounts;
  receivedShare: number;
  isLate: boolean;
  hasErrors: boolean;
  dataStatusUIField: string;
  workPaperStatusUIField: string;
  isParentUIField: string | null;
  processStatus: 'Processing' | 'Ready' | 'Idle';
  calculationStatus: string | null;
}

/** Derives the display fields of a fund (row fields: status, dueDate, jobType, rerunCount, isParent, parentId). */
export function deriveFields(
  fund: { status: string | null; dueDate: string | null; jobType: string | null; rerunCount: number; isParent: boolean; parentId: number | null },
  facts: FundFacts,
  today = todayIso(),
): DerivedFields {
  const counts = computeDataStatusCounts(requiredInputTypes(fund.jobType), facts.newestInputs, facts.workPapers);
  const share = receivedShare(counts);
  const late = isLate(fund, share, today);
  return {
    dataStatusCounts: counts,
    workPaperStatusCounts: facts.workPapers,
    receivedShare: share,
    isLate: late,
    hasErrors: facts.processError || counts.errorCount > 0,
    dataStatusUIField: dataStatusLabel(counts, { oversized: facts.oversized, late }),
    workPaperStatusUIField: workPaperStatusLabel(facts.workPapers, fund.rerunCount),
    isParentUIField: parentDisplay({ childrenCount: facts.children.length, isParent: fund.isParent, parentId: fund.parentId }),
    processStatus: processStatusLabel(facts.runningProcesses.length > 0, facts.processReady),
    calculationStatus: facts.oversized ? 'tooLarge' : facts.calculationStatus,
  };
}
