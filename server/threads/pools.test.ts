/**
 * The request pools: heavy request work (uploads, mapping files, self-onboarding checks, the xlsx
 * export, uncached listings) is answered by pool threads, never by the thread serving requests
 * (which refuses such work here); the answers are those of the same services run in-thread; the
 * read pool sees every write at once and answers distinct queries on several threads; a pool
 * thread that dies gives a clear error, not a hang.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorResponse } from '../http/envelope.js';
import { fixturesDir } from '../paths.js';
import { validateBulkUpload } from '../services/bulk-upload/bulk-upload.js';
import { changeStatus } from '../services/funds/actions.js';
import { queryListing, type ListingInput } from '../services/funds/listing.js';
import { apiClient, createTestContext, errorOf, sessionToken, type TestContext } from '../testing/context.js';
import { refuseHeavyWork } from '../lib/guard.js';
import { onPoolTask, PoolThreadError, runTask, setRequestPoolOptions, warmReadPool, type PoolTaskEvent } from './pools.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
const done: PoolTaskEvent[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  await setRequestPoolOptions(ctx, { readThreads: 2, parseThreads: 1, diagnostics: true });
  onPoolTask(ctx, (e) => done.push(e));
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterEach(() => refuseHeavyWork(false));
afterAll(() => ctx.dispose());

const fixture = (...path: string[]) => readFileSync(join(fixturesDir(), ...path));
const form = (fields: Record<string, string>, files: Array<{ field: string; name: string; bytes: Buffer }>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const x of files) f.append(x.field, new Blob([new Uint8Array(x.bytes)]), x.name);
  return f;
};
const uploadCsv = (path: string, name: string, bytes: Buffer) => api.call('POST', path, { token, body: form({}, [{ field: 'upload', name, bytes }]) });
/** The pool tasks done while `fn` ran. */
async function tasksOf(fn: () => Promise<unknown>): Promise<PoolTaskEvent[]> {
  const from = done.length;
  await fn();
  return done.slice(from);
}

describe('request pools', () => {
  it('answer uploads, mapping files, self-onboarding checks, the export and uncached listings in pool threads', async () => {
    refuseHeavyWork(true);
    // the thread serving requests refuses the work itself...
    expect((await errorOf(() => validateBulkUpload(ctx, 'real-funds.csv', fixture('fund-requests', 'real-funds.csv')))).message).toMatch(
      /ran on the thread that serves requests/,
    );
    // ...and every call below still answers: its heavy part ran in a pool thread
    const seen = await tasksOf(async () => {
      const listing = await api.post('funds/listing', { search: 'kentucky' }, token);
      expect(listing.status, JSON.stringify(listing.body)).toBe(200);
      expect((await api.get('user/funds/0/10', token)).status).toBe(200);
      const validated = await uploadCsv('funds/upload', 'real-funds.csv', fixture('fund-requests', 'real-funds.csv'));
      expect(validated.status, JSON.stringify(validated.body)).toBe(200);
      const saved = await api.post('funds', { funds: validated.body.payload.editable.slice(0, 1).map((r: any) => ({ ...r, isEditable: true })) }, token);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const auditorUpload = await uploadCsv('fund-request/bulk', 'bad-rows.csv', fixture('fund-requests', 'bad-rows.csv'));
      expect(auditorUpload.status, JSON.stringify(auditorUpload.body)).toBe(200);
      const mapping = await api.call('POST', 'mappings/create', {
        token,
        body: form(
          {
            administrator: 'meridian_fund_services',
            mappingType: 'instrument_mapping',
            mappingMode: 'custom',
            mappingName: 'pool_check',
            rationale: 'pool test',
          },
          [{ field: 'upload', name: 'instrument_mapping.csv', bytes: fixture('tpas', 'meridian_fund_services', 'mappings', 'instrument_mapping.csv') }],
        ),
      });
      expect(mapping.status, JSON.stringify(mapping.body)).toBe(200);
      const checked = await api.call('POST', 'sdm-upload/validate-mappings', {
        token,
        body: form({}, [{ field: 'mappings', name: 'file_layout.csv', bytes: fixture('tpas', 'demo_test', 'mappings', 'file_layout.csv') }]),
      });
      expect(checked.body.payload.file_layout.valid).toBe(true);
      const exported = await api.app.fetch(
        new Request('http://t/api/v2.0/funds/export-all', {
          method: 'POST',
          headers: { 'x-access-token': token, 'content-type': 'application/json' },
          body: '{}',
        }),
      );
      expect(exported.status).toBe(200);
      expect(Number(exported.headers.get('x-total-count'))).toBeGreaterThan(0);
    });
    expect(new Set(seen.map((e) => `${e.pool} ${e.task}`))).toEqual(
      new Set([
        'read funds.listing-page',
        'read funds.auditor-listing',
        'parse bulk-upload.validate',
        'parse bulk-upload.prepare-save',
        'parse bulk-upload.prepare-upload',
        'parse mappings.parse',
        'parse sdm-upload.read-mappings',
        'parse funds.export-listing',
      ]),
    );
    expect(seen.every((e) => e.thread !== threadId)).toBe(true);
  });

  it('answer what the same services answer on this thread, errors included', async () => {
    const inputs: ListingInput[] = [
      {},
      { search: 'fund', sorting: [{ field: 'client', order: 'asc' }], pagination: { limit: 3 } },
      { filters: [{ field: 'status', type: 'enum', value: ['Pending', 'Approved'] }], offset: 1 },
    ];
    for (const input of inputs) {
      const res = await api.post('funds/listing', input, token);
      const here = await queryListing(ctx, ctx.boot.admin, input, input.offset ?? 0, input.pagination?.limit ?? 100);
      expect(res.body.payload).toEqual(JSON.parse(JSON.stringify(here)));
    }
    const bytes = fixture('fund-requests', 'real-funds.csv');
    expect((await uploadCsv('funds/upload', 'real-funds.csv', bytes)).body.payload).toEqual(
      JSON.parse(JSON.stringify(await validateBulkUpload(ctx, 'real-funds.csv', bytes))),
    );
    // a user's mistakes keep their messages and statuses
    const ragged = await uploadCsv('funds/upload', 'ragged-rows.csv', fixture('fund-requests', 'encodings', 'ragged-rows.csv'));
    expect(ragged.status).toBe(400);
    expect(ragged.body.message).toBe(
      (await errorOf(() => validateBulkUpload(ctx, 'ragged-rows.csv', fixture('fund-requests', 'encodings', 'ragged-rows.csv')))).message,
    );
    expect(ragged.body.errors).toEqual(['ragged-rows.csv, row 3: wrong number of values (ragged row)']);
    const unknownFilter = await api.post('funds/listing', { filterId: 999 }, token);
    expect([unknownFilter.status, unknownFilter.body.message]).toEqual([404, 'No such filter with id: 999']);
    const badField = await api.post('funds/listing', { sorting: [{ field: 'nope', order: 'asc' }] }, token);
    expect(badField.status).toBe(400);
  });

  it('list a write at once, whether this process or another connection made it', async () => {
    const page = async () => (await api.post('funds/listing', { search: 'kentucky' }, token)).body.payload.rows[0];
    const first = await page();
    await changeStatus(ctx, ctx.boot.admin, first.status === 'Pending' ? 'approve' : 'pause', { ids: [first.id], requestedBy: 'test' });
    const second = await page();
    expect(second.status).not.toBe(first.status);
    const other = new Database(join(ctx.dir, ctx.config.dbName));
    try {
      other.prepare('UPDATE fund_requests SET name = ? WHERE id = ?').run('Kentucky Renamed Elsewhere', first.id);
    } finally {
      other.close();
    }
    expect((await page()).name).toBe('Kentucky Renamed Elsewhere');
  });

  it('answer distinct listing queries on several read threads at once', async () => {
    const seen = await tasksOf(() =>
      Promise.all(Array.from({ length: 12 }, (_, i) => api.post('funds/listing', { search: `fund ${i}`, pagination: { limit: 5 } }, token))),
    );
    const readers = new Set(seen.filter((e) => e.task === 'funds.listing-page').map((e) => e.thread));
    expect(readers.size).toBe(2);
  });

  it('start every reader when warmed, so the first pages are answered by readers already open', async () => {
    await setRequestPoolOptions(ctx, { readThreads: 2 });
    const warmed = await tasksOf(() => warmReadPool(ctx));
    const readers = new Set(warmed.map((e) => e.thread));
    expect(warmed.every((e) => e.pool === 'read' && e.thread !== threadId)).toBe(true);
    expect(readers.size).toBe(2);
    const pages = await tasksOf(() =>
      Promise.all(Array.from({ length: 6 }, (_, i) => api.post('funds/listing', { search: `warm ${i}`, pagination: { limit: 5 } }, token))),
    );
    expect(pages.length).toBe(6);
    expect(pages.every((e) => readers.has(e.thread))).toBe(true);
  });

  it('give a clear error when a pool thread dies, and answer the next call', async () => {
    const err = await runTask(ctx, 'parse', 'threads.crash', []).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PoolThreadError);
    const res = errorResponse(err, ctx.log, {});
    expect(res.status).toBe(503);
    expect((await res.json()).message).toMatch(/^The server could not finish this request: the worker thread doing it \(threads\.crash\) stopped\. Try again/);
    const next = await uploadCsv('funds/upload', 'real-funds.csv', fixture('fund-requests', 'real-funds.csv'));
    expect(next.status).toBe(200);
  });
});
