/**
 * The export stage (DOMAIN.md 2.6): a process `{stage: 'export', fundRequestId: null, payload:
 * {exportId}}` turns one export row into one zip. The zip is streamed to a temporary file in the
 * blob store while its sha256 is computed, then moved in under that key (a half-written zip is
 * never visible). The row goes `pending -> running -> done` (blobKey, finishedAt, payload.files,
 * payload.size) or `error` (payload.error); each change is an `export` event. The SDM rows are
 * read a chunk at a time (no statement left open between chunks).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive, type Archiver } from 'archiver';
import { asc, inArray } from 'drizzle-orm';
import { JobCancelled } from '../../../pipeline/engine.js';
import type { StageHandler } from '../../queue/queue.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { fundEntries, fundListEntry, fundPrefix, type ZipEntry } from '../../services/exports/entries.js';
import { loadExport, removeBlobIfUnused, setExportStatus, type ExportPayload } from '../../services/exports/store.js';

/** Message of an export whose funds have nothing to add for the chosen stages. */
export const NOTHING_TO_EXPORT = 'Nothing to export: the chosen fund requests have no files for the chosen stages';

/** `name`, or `name_2.ext`, `name_3.ext`... when already used in the zip. */
function uniqueName(used: Set<string>, name: string): string {
  let out = name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > name.lastIndexOf('/') ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; used.has(out); n++) out = `${stem}_${n}${ext}`;
  used.add(out);
  return out;
}

/** Appends one entry and waits until the archive has consumed it (entries go one at a time). */
function addEntry(archive: Archiver, source: Readable | Buffer | string, name: string, date: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      archive.off('entry', onEntry);
      archive.off('error', onError);
      if (source instanceof Readable) source.off('error', onError);
    };
    const onEntry = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    archive.on('entry', onEntry);
    archive.on('error', onError);
    if (source instanceof Readable) source.on('error', onError);
    archive.append(source, { name, date });
  });
}

/** The funds of an export in the asked order, with their zip prefixes (unique within the zip). */
async function exportFunds(ctx: AppContext, ids: number[], warn: (m: string) => void): Promise<Array<{ id: number; prefix: string }>> {
  const { db, tables: t } = storeOf(ctx);
  const rows = ids.length
    ? await db.select({ id: t.fundRequests.id, dueDate: t.fundRequests.dueDate }).from(t.fundRequests).where(inArray(t.fundRequests.id, ids))
    : [];
  const codes = ids.length ? await db.select().from(t.fundCodes).where(inArray(t.fundCodes.fundRequestId, ids)).orderBy(asc(t.fundCodes.id)) : [];
  const prefixes = new Set<string>();
  return ids.flatMap((id) => {
    const fund = rows.find((r) => r.id === id);
    if (!fund) {
      warn(`Fund request ${id} no longer exists`);
      return [];
    }
    const code = codes.find((c) => c.fundRequestId === id && c.main)?.code ?? codes.find((c) => c.fundRequestId === id)?.code ?? String(id);
    let prefix = fundPrefix(code, fund.dueDate);
    // two funds with the same code and due date: the second gets its id after the code
    if (prefixes.has(prefix)) prefix = fundPrefix(`${code}-${id}`, fund.dueDate);
    prefixes.add(prefix);
    return [{ id, prefix }];
  });
}

interface ZipResult {
  key: string;
  size: number;
  files: number;
}

/**
 * Writes the zip of an export into the blob store.
 * @throws JobCancelled when `signal` aborts; Error(NOTHING_TO_EXPORT) when no entry was added
 */
async function writeZip(ctx: AppContext, payload: ExportPayload, signal: AbortSignal, warn: (m: string) => void): Promise<ZipResult> {
  const tmp = ctx.blobs.tmpPath('.zip');
  const hash = createHash('sha256');
  const archive = new ZipArchive({ zlib: { level: 9 } });
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  const written = pipeline(archive, hashing, createWriteStream(tmp));
  const failed = new Promise<never>((_, reject) => {
    written.catch(reject);
  });
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new JobCancelled('The export was cancelled'));
    signal.addEventListener('abort', () => reject(new JobCancelled('The export was cancelled')), { once: true });
  });
  failed.catch(() => {});
  aborted.catch(() => {});
  const used = new Set<string>();
  const date = new Date();
  let files = 0;
  let current: Readable | null = null;
  const add = async (entry: ZipEntry) => {
    const source = await entry.open();
    current = source instanceof Readable ? source : null;
    await Promise.race([addEntry(archive, source, uniqueName(used, entry.name), date), failed, aborted]);
    current = null;
    files++;
  };
  try {
    const { inputs } = payload;
    if (inputs.fundRequestStages.includes('fundRequest')) await add(fundListEntry(ctx, inputs.fundRequests));
    for (const fund of await exportFunds(ctx, inputs.fundRequests, warn)) {
      // one fund at a time: its entries (and log lines) are read only when its turn comes
      for (const entry of await fundEntries(ctx, fund, inputs, warn)) await add(entry);
    }
    if (!files) throw new Error(NOTHING_TO_EXPORT);
    await Promise.race([archive.finalize(), aborted]);
    await Promise.race([written, aborted]);
  } catch (err) {
    // stop reading (closes a database iterator) and end the pipeline, which then rejects
    (current as Readable | null)?.destroy();
    archive.abort();
    archive.destroy();
    await written.catch(() => {});
    rmSync(tmp, { force: true });
    throw err;
  }
  const key = hash.digest('hex');
  const size = statSync(tmp).size;
  if (ctx.blobs.has(key)) rmSync(tmp, { force: true });
  else ctx.blobs.adopt(tmp, key);
  return { key, size, files };
}

/**
 * The export stage handler (registered with the engine as `export`).
 * @returns `{result: {exportId, files, size}}`; a deleted export is skipped
 * @throws the failure (the export row is `error` with `payload.error` first)
 */
export const exportStageHandler: StageHandler = async (ctx, job, signal) => {
  const exportId = Number(job.payload?.exportId);
  const row = Number.isInteger(exportId) ? await loadExport(ctx, exportId) : undefined;
  if (!row) return { result: { exportId, skipped: 'The export no longer exists' } };
  await setExportStatus(ctx, exportId, 'running', { payload: { error: undefined } });
  const warnings: string[] = [];
  try {
    const zip = await writeZip(ctx, row.payload as unknown as ExportPayload, signal, (m) => warnings.push(m));
    const done = await setExportStatus(ctx, exportId, 'done', {
      blobKey: zip.key,
      finished: true,
      payload: { files: zip.files, size: zip.size, ...(warnings.length ? { warnings } : {}) },
    });
    // a rerun replaces the previous zip
    if (row.blobKey && row.blobKey !== zip.key) await removeBlobIfUnused(ctx, row.blobKey);
    if (!done) await removeBlobIfUnused(ctx, zip.key); // deleted while running
    return { result: { exportId, files: zip.files, size: zip.size } };
  } catch (err) {
    const message = err instanceof JobCancelled ? 'The export was cancelled' : (err as Error).message;
    await setExportStatus(ctx, exportId, 'error', { finished: true, payload: { error: message, ...(warnings.length ? { warnings } : {}) } });
    throw err;
  }
};
