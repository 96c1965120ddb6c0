/**
 * What every local backend shares: the data directory opened for one call (as the first Admin, the
 * way the CLI acts locally), and results put in the shape the API sends them in.
 */
import type { AppContext } from '../../server/context.js';
import type { ApiResponse, Operation } from '../../server/http/contract.js';
import type { User } from '../../server/services/auth/tokens.js';
import { ensureAdmin } from '../../server/services/users/users.js';
import { openLocal, type GlobalOptions } from '../global.js';

/**
 * Runs `fn` on the local data directory (which must exist) as its first Admin, closing it afterwards.
 * @throws MissingDataDirError when the data directory does not exist; whatever `fn` throws
 */
export async function withLocal<T>(g: GlobalOptions, fn: (ctx: AppContext, user: User) => T | Promise<T>): Promise<T> {
  const ctx = await openLocal(g);
  try {
    return await fn(ctx, (await ensureAdmin(ctx, ctx.config.adminEmail)).user);
  } finally {
    ctx.close();
  }
}

/**
 * A service result as the API would send it (JSON: dates as ISO text, undefined fields left out),
 * so a command prints the same thing locally and with `--server`.
 */
export function asSent<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/**
 * A service result as the API sends it for `operation` (see `asSent`), typed as the operation's
 * payload: the route answers with the same service, and its response schema is checked against
 * real answers (server/http/openapi-answers*.test.ts), so local and `--server` results share one type.
 * A promise is refused by type: await the service first.
 */
export function sentAs<K extends Operation, V>(_operation: K, value: V extends PromiseLike<unknown> ? never : V): ApiResponse<K> {
  return asSent(value) as ApiResponse<K>;
}
