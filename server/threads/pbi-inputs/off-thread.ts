/**
 * PowerBI input saves for requests: the csv is read and checked in the parse pool
 * (server/threads/pools.ts), so a file of a million short lines never holds up the thread that
 * serves requests; the checks before and the save after run on the calling thread.
 */
import type { AppContext } from '../../context.js';
import { movable, runTask } from '../pools.js';
import type { User } from '../../services/auth/tokens.js';
import { checkPbiInput, storePbiInput, type SavedPbiInput } from '../../services/pbi-inputs/pbi-inputs.js';

/**
 * `savePbiInput` with the csv checked in the parse pool.
 * @throws as `savePbiInput`
 */
export async function savePbiInputOffThread(
  ctx: AppContext,
  user: User,
  input: { pbiInputsTypes?: string | null; fileName: string; bytes: Uint8Array },
  baseUrl = '',
): Promise<SavedPbiInput> {
  const code = checkPbiInput(ctx, input);
  // a copy goes to the pool thread; the upload's own bytes are the ones stored
  const file = movable(input.bytes);
  const rowCount = await runTask(ctx, 'parse', 'pbi-inputs.count-rows', [code, input.fileName, file.bytes, ctx.config.maxUploadRows], file.transfer);
  return storePbiInput(ctx, user, { code, fileName: input.fileName, bytes: input.bytes, rowCount }, baseUrl);
}
