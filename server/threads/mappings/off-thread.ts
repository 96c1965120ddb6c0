/**
 * Mapping uploads for requests: `createMapping` with the file read and checked in the parse pool
 * (server/threads/pools.ts); the checks before and the save after run on the calling thread.
 */
import type { AppContext } from '../../context.js';
import { movable, runTask } from '../pools.js';
import type { User } from '../../services/auth/tokens.js';
import { checkMappingInput, saveMapping, type CreateMappingInput } from '../../services/mappings/mappings.js';
import type { MappingRow } from '../../services/mappings/store.js';

/**
 * `createMapping` with the file validated in the parse pool. The input is checked before the file
 * is read (so its messages come first, as in `createMapping`) and again before saving, since
 * another request may have taken the name or removed the mapping meanwhile.
 * @throws ValidationError, NotFoundError or ForbiddenError as `createMapping`
 */
export async function createMappingOffThread(ctx: AppContext, user: User, input: CreateMappingInput): Promise<MappingRow> {
  const { type } = await checkMappingInput(ctx, user, input);
  const file = movable(input.bytes);
  const parsed = await runTask(ctx, 'parse', 'mappings.parse', [type, input.fileName, file.bytes], file.transfer);
  return saveMapping(ctx, user, input, await checkMappingInput(ctx, user, input), parsed);
}
