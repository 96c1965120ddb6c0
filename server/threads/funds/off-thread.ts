/**
 * Fund listings, fund details and the listing export for requests: the services of listing.ts and
 * export-listing.ts with their heavy part in a request pool (server/threads/pools.ts). A cached
 * listing page is answered on the calling thread; a page not cached (or stale) is computed by the
 * read pool, whose threads each read the latest committed data on a read-only connection, so
 * distinct queries are answered in parallel. The xlsx export is built in the parse pool.
 *
 * The pools' threads read the data directory's SQLite database, or on PostgreSQL open a small
 * pool of connections of their own (server/threads/pool-entry.ts) from the configuration's
 * `databaseUrl`; a PostgreSQL context made without one (opened on a URL alone) runs the same
 * services on the calling thread.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import type { AppContext } from '../../context.js';
import { baseStoreOf } from '../../db/dialect.js';
import { runTask } from '../pools.js';
import type { User } from '../../services/auth/tokens.js';
import { exportListing, type ExportedListing, type ExportListingInput } from '../../services/funds/export-listing.js';
import type { EncodedPayload } from '../../lib/encoded.js';
import { getFundDetails } from '../../services/funds/details.js';
import { cachedListing, cachedListingJson, cachedListingJsonAsync } from '../../services/cache/listing-cache.js';
import {
  countFundsForAuditor,
  countListing,
  countListingKey,
  listFundsForAuditor,
  listFundsJson,
  listingKey,
  pageOf,
  type AuditorFundRow,
  type ListingInput,
  type Pagination,
  type AuditorListInput,
} from '../../services/funds/listing.js';

/** Whether the request pools can serve this context (their threads open its SQLite data directory, or its `databaseUrl`). */
const pooled = (ctx: AppContext) => baseStoreOf(ctx).dialect === 'sqlite' || !!ctx.config.databaseUrl;

/**
 * `listFundsJson` with cache misses answered by the read pool (delivery `POST /funds/listing`).
 * @throws ValidationError for bad filters, sorting or page bounds; NotFoundError for an unknown filterId
 */
export function listFundsJsonOffThread(
  ctx: AppContext,
  user: User | null,
  input: ListingInput = {},
): Promise<{ readonly json: string; readonly encoded?: { body: Uint8Array<ArrayBuffer>; gzip?: Uint8Array<ArrayBuffer> } }> {
  if (!pooled(ctx)) return listFundsJson(ctx, user, input);
  const { offset, limit } = pageOf(input);
  return cachedListingJsonAsync(ctx, listingKey(user, input, offset, limit), () => runTask(ctx, 'read', 'funds.listing-page', [user, input, offset, limit]));
}

/**
 * A fund's details (`GET /fund/:id`, `getFundDetails`) as JSON: from the listing cache while no
 * write touched what they read (listing-cache.ts; they are the same for every user), else made by
 * the read pool, JSON and gzip included. A fund with many deliveries has megabytes of details (each
 * file's validation), which the request thread would otherwise parse and serialise on every call.
 * @throws NotFoundError 'No such fund request with id: {id}'
 */
export function fundDetailsJsonOffThread(ctx: AppContext, id: number): Promise<{ readonly json: string; readonly encoded?: EncodedPayload }> {
  const key = JSON.stringify(['fund-details', id]);
  if (!pooled(ctx)) return cachedListingJson(ctx, key, () => getFundDetails(ctx, id));
  return cachedListingJsonAsync(ctx, key, () => runTask(ctx, 'read', 'funds.details', [id]));
}

/** `listFundsForAuditor` answered by the read pool (its pages are not cached). @throws as `listFundsForAuditor` */
export function listFundsForAuditorOffThread(ctx: AppContext, input: AuditorListInput): Promise<{ rows: AuditorFundRow[]; pagination: Pagination }> {
  if (!pooled(ctx)) return listFundsForAuditor(ctx, input);
  return runTask(ctx, 'read', 'funds.auditor-listing', [input]);
}

/**
 * `countListing` (the exact count of a delivery listing request, `POST /funds/listing/count`): a
 * cached answer on the calling thread, else counted by the read pool.
 * @throws as `countListing`
 */
export function countListingOffThread(ctx: AppContext, user: User | null, input: ListingInput): Promise<{ count: number }> {
  if (!pooled(ctx)) return countListing(ctx, user, input);
  return cachedListing(ctx, countListingKey(user, input), () => runTask(ctx, 'read', 'funds.listing-count', [user, input]));
}

/** `countFundsForAuditor` counted by the read pool (`GET /user/funds/count`). @throws as `countFundsForAuditor` */
export function countFundsForAuditorOffThread(ctx: AppContext, input: Pick<AuditorListInput, 'tpa'>): Promise<{ count: number }> {
  if (!pooled(ctx)) return countFundsForAuditor(ctx, input);
  return runTask(ctx, 'read', 'funds.auditor-count', [input]);
}

/** `exportListing` built in the parse pool (delivery `POST /funds/export-all`). @throws as `exportListing` */
export async function exportListingOffThread(ctx: AppContext, user: User | null, input: ExportListingInput = {}): Promise<ExportedListing> {
  if (!pooled(ctx)) return exportListing(ctx, user, input);
  const file = await runTask(ctx, 'parse', 'funds.export-listing', [user, input]);
  return { ...file, bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) };
}
