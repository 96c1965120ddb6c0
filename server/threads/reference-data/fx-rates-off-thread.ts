/**
 * The independent FX rates for requests: the file checks and the reading of the rate files done
 * in the parse pool (server/threads/pools.ts); the write of an uploaded file stays on the calling
 * thread.
 */
import type { AppContext } from '../../context.js';
import { movable, runTask } from '../pools.js';
import type { AuditActor } from '../../services/audit/audit-log.js';
import { auditFxFileLoaded, importFxFile, type FxRateFile, type FxRatesOverview } from '../../services/reference-data/fx-rates.js';

/** `fxRatesOverview` in the parse pool. */
export function fxRatesOverviewOffThread(ctx: AppContext): Promise<FxRatesOverview> {
  return runTask(ctx, 'parse', 'fx-rates.overview', []);
}

/**
 * `importFxFile` with the file checked in the parse pool, recorded in the audit log as loaded by `actor`.
 * @throws ValidationError as `checkFxFile`
 */
export async function importFxFileOffThread(ctx: AppContext, file: { fileName: string; bytes: Uint8Array }, actor: AuditActor | null): Promise<FxRateFile> {
  const copy = movable(file.bytes);
  const checked = await runTask(ctx, 'parse', 'fx-rates.check', [file.fileName, copy.bytes], copy.transfer);
  return auditFxFileLoaded(ctx, actor, importFxFile(ctx, file, checked));
}
