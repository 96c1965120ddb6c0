/**
 * The work the request pools do, by name: each task calls the same service function the calling
 * thread would, with the pool thread's own context (read-context.ts). Arguments and results cross
 * threads by structured cloning: plain data only. A task never writes: the pool's connection is
 * read-only; the writing half of a service (a save, an import) stays with the caller (scorecards
 * compute stale tallies without writing them back: the refresher does).
 */
import { exit } from 'node:process';
import { threadId } from 'node:worker_threads';
import type { MappingType } from '../../pipeline/sdm/model.js';
import type { AppContext } from '../context.js';
import { encodePayload } from '../lib/encoded.js';
import type { User } from '../services/auth/tokens.js';
import { prepareBulkSave, prepareBulkUpload, validateBulkUpload, type BulkSaveInput, type BulkSaveOptions } from '../services/bulk-upload/bulk-upload.js';
import { getFundDetails } from '../services/funds/details.js';
import { exportListing, type ExportListingInput } from '../services/funds/export-listing.js';
import { countFundsForAuditor, countListing, listFundsForAuditor, queryListing, type AuditorListInput, type ListingInput } from '../services/funds/listing.js';
import { parseMappingFile } from '../services/mappings/mappings.js';
import { countPbiRows } from '../services/pbi-inputs/pbi-inputs.js';
import { checkSdmFile, type SdmFileToCheck } from '../services/sdm-upload/check-file.js';
import { prepareSdmFundRequests } from '../services/sdm-upload/process.js';
import { readMappingFiles, type UploadedCsv } from '../services/sdm-upload/sdm-upload.js';
import { scorecardFunds, type ScorecardFundsInput } from '../services/scorecards/funds.js';
import { scorecard, type ScorecardInput, type Viewer } from '../services/scorecards/scorecard.js';
import { scorecardWorkbook } from '../services/scorecards/xlsx.js';
import { checkFxFile, fxRatesOverview } from '../services/reference-data/fx-rates.js';

/** Whether this thread's pool accepts the diagnostic tasks that end a thread (set by pool-entry.ts from the pool options). */
export const diagnostics = { enabled: false };

export const tasks = {
  // parse pool
  // the answer of `POST funds/upload` encoded here: a 20,000-row validation is megabytes of JSON
  'bulk-upload.validate': async (ctx: AppContext, fileName: string, bytes: Uint8Array) =>
    encodePayload(JSON.stringify(await validateBulkUpload(ctx, fileName, bytes)), true),
  'bulk-upload.prepare-save': (ctx: AppContext, input: BulkSaveInput, opts: BulkSaveOptions) => prepareBulkSave(ctx, input, opts),
  'bulk-upload.prepare-upload': (ctx: AppContext, fileName: string, bytes: Uint8Array) => prepareBulkUpload(ctx, fileName, bytes),
  'mappings.parse': (ctx: AppContext, type: MappingType, fileName: string, bytes: Uint8Array) =>
    parseMappingFile(type, fileName, bytes, ctx.config.maxUploadRows),
  'sdm-upload.read-mappings': (ctx: AppContext, files: UploadedCsv[]) => readMappingFiles(files, ctx.config.maxUploadRows),
  'pbi-inputs.count-rows': (_ctx: AppContext, typeCode: string, fileName: string, bytes: Uint8Array, maxRows: number) =>
    countPbiRows(typeCode, fileName, bytes, maxRows),
  'sdm-upload.check-file': (ctx: AppContext, file: SdmFileToCheck) => checkSdmFile(ctx, file),
  'sdm-upload.prepare-fund-requests': (ctx: AppContext, adminCode: string, fileName: string, blobKey: string) =>
    prepareSdmFundRequests(ctx, adminCode, fileName, blobKey),
  'fx-rates.check': (_ctx: AppContext, fileName: string, bytes: Uint8Array) => checkFxFile({ fileName, bytes }),
  'fx-rates.overview': (ctx: AppContext) => fxRatesOverview(ctx),
  'funds.export-listing': (ctx: AppContext, user: User | null, input: ExportListingInput) => exportListing(ctx, user, input),
  'scorecards.xlsx': (ctx: AppContext, input: ScorecardInput, viewer: Viewer | null) => scorecardWorkbook(ctx, input, viewer),
  // read pool
  // the page as JSON, and as the answer's bytes, plain and gzip-compressed: none of it left to the request thread
  'funds.listing-page': async (ctx: AppContext, user: User | null, input: ListingInput, offset: number, limit: number) => {
    const json = JSON.stringify(await queryListing(ctx, user, input, offset, limit));
    return { json, encoded: encodePayload(json, true) };
  },
  'funds.details': async (ctx: AppContext, id: number) => {
    const json = JSON.stringify(await getFundDetails(ctx, id));
    return { json, encoded: encodePayload(json, true) };
  },
  'funds.auditor-listing': (ctx: AppContext, input: AuditorListInput) => listFundsForAuditor(ctx, input),
  'funds.listing-count': (ctx: AppContext, user: User | null, input: ListingInput) => countListing(ctx, user, input),
  'funds.auditor-count': (ctx: AppContext, input: Pick<AuditorListInput, 'tpa'>) => countFundsForAuditor(ctx, input),
  'scorecards.card': (ctx: AppContext, input: ScorecardInput, viewer: Viewer | null) => scorecard(ctx, input, viewer),
  'scorecards.funds': (ctx: AppContext, input: ScorecardFundsInput, viewer: Viewer | null) => scorecardFunds(ctx, input, viewer),
  // diagnostics (tests), and the warm-up of a starting read pool (its thread opens its connection first)
  'threads.thread-id': (_ctx: AppContext) => threadId,
  'threads.crash': (_ctx: AppContext) => {
    if (!diagnostics.enabled) throw new Error('threads.crash is a diagnostic task; the pool was not started with diagnostics');
    exit(70);
  },
} satisfies Record<string, (ctx: AppContext, ...args: any[]) => unknown>;

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
/** The arguments of a task after its context. */
export type TaskArgs<N extends TaskName> = Tasks[N] extends (ctx: AppContext, ...args: infer A) => unknown ? A : never;
/** What a task answers. */
export type TaskResult<N extends TaskName> = Awaited<ReturnType<Tasks[N]>>;
