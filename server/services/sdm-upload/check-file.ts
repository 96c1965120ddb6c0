/**
 * The check of a file added to a self-onboarding upload (auditor spec section 7, 'Add file'):
 * a fund-request file is read as a bulk upload; an SDM file must be a readable table whose header
 * the TPA's file layout for its SDM type recognises (the same identification the pipeline runs on
 * delivery), so junk is refused when it is added, not at Process.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { bytesSource } from '../../../pipeline/readers/source.js';
import { streamTables } from '../../../pipeline/readers/table.js';
import { identifyTable } from '../../../pipeline/stages/identify.js';
import type { AppContext } from '../../context.js';
import { readBulkCsv } from '../bulk-upload/read-csv.js';
import { compileMappings, masterMappings } from '../mappings/store.js';

/** What the check needs to know about the added file. */
export interface SdmFileToCheck {
  type: 'FundRequest' | 'SDM';
  /** `fund_request` or the SDM type (`holdings`, `trial_balance` ...), from the file name */
  subType: string;
  administratorId: number | null;
  fileName: string;
  bytes: Uint8Array;
}

/**
 * Checks an added file.
 * @returns its errors (each starting with the file name), none when it is valid
 */
export async function checkSdmFile(ctx: AppContext, file: SdmFileToCheck): Promise<string[]> {
  if (!file.bytes.byteLength) return [`${file.fileName}: the file is empty`];
  try {
    if (file.type === 'FundRequest') {
      readBulkCsv(file.fileName, file.bytes, ctx.config.maxUploadBytes, ctx.config.maxBulkUploadRows);
      return [];
    }
    return await checkSdmTable(ctx, file);
  } catch (err) {
    return [(err as Error).message];
  }
}

async function checkSdmTable(ctx: AppContext, file: SdmFileToCheck): Promise<string[]> {
  const layouts = file.administratorId === null ? [] : compileMappings(await masterMappings(ctx, file.administratorId)).layouts;
  const ofType = layouts.filter((l) => l.sdmType === file.subType);
  if (!ofType.length) return [`${file.fileName}: the TPA has no file layout for ${file.subType}; add one to its file_layout mapping first`];
  const tables = streamTables(file.fileName, bytesSource(file.bytes), { limitBytes: ctx.config.identificationLimitBytes });
  try {
    const first = await tables.next();
    if (first.done) return [`${file.fileName}: no table with a header row was found in the file`];
    const found = identifyTable(first.value, ofType);
    if (found.error_code)
      return [
        `${file.fileName}: the header does not match the TPA's ${file.subType} layout (${found.columnMatchPercent}% of its required columns found; missing ${found.columnsMissing.join(', ')})`,
      ];
    return [];
  } finally {
    await tables.return(undefined);
  }
}
