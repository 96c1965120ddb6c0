/**
 * The check of a file added to a self-onboarding upload (auditor spec section 7, 'Add file'):
 * a fund-request file is read as a bulk upload; an SDM file must be a readable table whose header
 * the TPA's file layout for its SDM type recognises (the same identification the pipeline runs on
 * delivery), so junk is refused when it is added, not at Process. A file under the TPA's own name
 * (`MFS_HOLDINGS_S000013795_20230331.csv`) rather than its type's is typed by its header: the
 * TPA's file layout it matches, else the fund-request template.
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
  /** `fund_request` or the SDM type (`holdings`, `trial_balance` ...) from the file name; null when the name is the TPA's own: typed by its header */
  subType: string | null;
  administratorId: number | null;
  fileName: string;
  bytes: Uint8Array;
}

/** The outcome of `checkSdmFile`: the file's type and its errors. */
export interface SdmFileCheck {
  type: 'FundRequest' | 'SDM';
  /** `fund_request` or the SDM type; null when a file under its own name could not be typed */
  subType: string | null;
  /** each starting with the file name; none when the file is valid */
  errors: string[];
}

/**
 * Checks an added file; one under the TPA's own name is typed first (`typeByHeader`).
 * @returns its type and errors
 */
export async function checkSdmFile(ctx: AppContext, file: SdmFileToCheck): Promise<SdmFileCheck> {
  const out = (errors: string[], f: Pick<SdmFileToCheck, 'type' | 'subType'> = file): SdmFileCheck => ({ type: f.type, subType: f.subType, errors });
  if (!file.bytes.byteLength) return out([`${file.fileName}: the file is empty`]);
  try {
    const typed: Typed = file.subType === null ? await typeByHeader(ctx, file) : { type: file.type, subType: file.subType };
    if ('error' in typed) return out([typed.error]);
    if (typed.type === 'FundRequest') {
      readBulkCsv(file.fileName, file.bytes, ctx.config.maxUploadBytes, ctx.config.maxBulkUploadRows);
      return out([], typed);
    }
    return out(await checkSdmTable(ctx, { ...file, subType: typed.subType }), typed);
  } catch (err) {
    return out([(err as Error).message]);
  }
}

/** A file's type, or why it has none. */
type Typed = { type: SdmFileToCheck['type']; subType: string } | { type: 'SDM'; subType: null; error: string };

const layoutsOf = async (ctx: AppContext, administratorId: number | null) =>
  administratorId === null ? [] : compileMappings(await masterMappings(ctx, administratorId)).layouts;

/**
 * The type of a file under the TPA's own name, by its header: the SDM type of the TPA's file layout
 * it matches (as the pipeline identifies a delivery), else a fund-request file when its header is
 * the bulk-upload template's.
 */
async function typeByHeader(ctx: AppContext, file: SdmFileToCheck): Promise<Typed> {
  const layouts = await layoutsOf(ctx, file.administratorId);
  const tables = streamTables(file.fileName, bytesSource(file.bytes), { limitBytes: ctx.config.identificationLimitBytes });
  let closest = '';
  try {
    const first = await tables.next();
    if (!first.done) {
      const found = identifyTable(first.value, layouts);
      if (found.sdmType) return { type: 'SDM', subType: found.sdmType };
      if (found.closestMatch) closest = ` (closest: the ${found.closestMatch} layout, ${found.columnMatchPercent}% of its required columns found)`;
    }
  } finally {
    await tables.return(undefined);
  }
  try {
    readBulkCsv(file.fileName, file.bytes, ctx.config.maxUploadBytes, ctx.config.maxBulkUploadRows);
    return { type: 'FundRequest', subType: 'fund_request' };
  } catch {
    return {
      type: 'SDM',
      subType: null,
      error: `${file.fileName}: its header matches none of the TPA's file layouts${closest} and is not the fund request template; check the file layout mapping, or name the file after its type (e.g. holdings.csv)`,
    };
  }
}

async function checkSdmTable(ctx: AppContext, file: SdmFileToCheck): Promise<string[]> {
  const layouts = await layoutsOf(ctx, file.administratorId);
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
