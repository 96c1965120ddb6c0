/**
 * Self-onboarding for requests: the services of sdm-upload.ts with their file checks (mapping
 * files, fund-request files and the validation of their rows) done in the parse pool
 * (server/threads/pools.ts); lookups and writes stay on the calling thread.
 */
import type { AppContext } from '../../context.js';
import { movable, runTask } from '../pools.js';
import type { User } from '../../services/auth/tokens.js';
import { finishSdmProcessing, processSdmFile, startSdmProcessing } from '../../services/sdm-upload/process.js';
import {
  checkSdmTpa,
  finishSdmFile,
  saveSdmUpload,
  startSdmFile,
  type CreateSdmUploadInput,
  type MappingValidation,
  type ReadMappingFiles,
  type UploadedCsv,
} from '../../services/sdm-upload/sdm-upload.js';

/** Reads mapping files in the parse pool (each file's bytes moved there). */
function readMappingFilesInPool(ctx: AppContext, files: UploadedCsv[]): Promise<ReadMappingFiles> {
  const moved = files.map((f) => ({ fileName: f.fileName, ...movable(f.bytes) }));
  return runTask(
    ctx,
    'parse',
    'sdm-upload.read-mappings',
    [moved.map((m) => ({ fileName: m.fileName, bytes: m.bytes }))],
    moved.flatMap((m) => m.transfer),
  );
}

/** Validates mapping files, one per type, each named after its type, in the parse pool (the results of `readMappingFiles`). */
export async function validateMappingFilesOffThread(ctx: AppContext, files: UploadedCsv[]): Promise<Record<string, MappingValidation>> {
  return (await readMappingFilesInPool(ctx, files)).results;
}

/** `createSdmUpload` with the mapping files read in the parse pool. @throws ValidationError as `createSdmUpload` */
export async function createSdmUploadOffThread(ctx: AppContext, user: User, input: CreateSdmUploadInput) {
  await checkSdmTpa(ctx, input.code);
  return saveSdmUpload(ctx, user, input, await readMappingFilesInPool(ctx, input.files));
}

/** `addSdmFile` with the file's check in the parse pool. @throws as `addSdmFile` */
export async function addSdmFileOffThread(ctx: AppContext, input: { sdmUploadId: number; file: UploadedCsv }) {
  const started = await startSdmFile(ctx, input);
  const file = movable(input.file.bytes);
  const errors = await runTask(ctx, 'parse', 'sdm-upload.check-file', [{ ...started.check, fileName: input.file.fileName, bytes: file.bytes }], file.transfer);
  return finishSdmFile(ctx, started, errors);
}

/** `processSdmUpload` with each fund-request file read and validated in the parse pool. @throws as `processSdmUpload` */
export async function processSdmUploadOffThread(ctx: AppContext, user: User, input: { id: number; forceRun?: boolean }) {
  const run = await startSdmProcessing(ctx, input);
  for (const f of run.files) {
    const fundRequests =
      f.type === 'FundRequest' ? await runTask(ctx, 'parse', 'sdm-upload.prepare-fund-requests', [run.admin.code, f.fileName, f.blobKey]) : null;
    await processSdmFile(ctx, user, run, f, fundRequests);
  }
  return finishSdmProcessing(ctx, run);
}
