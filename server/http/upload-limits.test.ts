/**
 * Uploads of many short lines: a 2 MB file of a million lines sent to each endpoint that reads a
 * whole text file (PowerBI inputs, bulk upload, auditor bulk upload, mapping uploads, the
 * self-onboarding mapping check and save, a self-onboarding fund_request.csv) is read in a pool
 * thread, refused past the row limit with a message naming the limit and the setting, and answers
 * small; an answer with many errors lists 100 and counts the rest. (How long the serving thread
 * works on such a file is measured in bench/hostile-uploads.bench.ts.)
 */
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BULK_UPLOAD_COLUMNS } from '../services/bulk-upload/columns.js';
import { refuseHeavyWork } from '../lib/guard.js';
import { onPoolTask, type PoolTaskEvent } from '../threads/pools.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { MAX_ERRORS_IN_ANSWER } from './envelope.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
const tasks: PoolTaskEvent[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ pbiInputs: true });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  onPoolTask(ctx, (e) => tasks.push(e));
});
afterEach(() => refuseHeavyWork(false));
afterAll(() => ctx.dispose());

/** A header line and a million short lines: 2 MB. */
const manyLines = (header: string, line = 'a') => Buffer.from(`${header}\n${`${line}\n`.repeat(1_000_000)}`);

function form(fields: Record<string, string>, field: string, name: string, bytes: Buffer): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append(field, new Blob([new Uint8Array(bytes)]), name);
  return f;
}

const send = (path: string, body: FormData) => api.call('POST', path, { token, body });

describe('a file of a million short lines', () => {
  it('is refused past the row limit by every endpoint that reads a whole text file, read in a pool thread', async () => {
    refuseHeavyWork(true);
    const from = tasks.length;
    const answers = {
      pbi: await send(
        'pbi-inputs/save',
        form({ pbiInputsTypes: 'fund_mapping' }, 'upload', 'funds.csv', manyLines('fund_code,administrator,engagement_code', 'a,b,c')),
      ),
      bulk: await send(
        'funds/upload',
        form({}, 'upload', 'funds.csv', manyLines(BULK_UPLOAD_COLUMNS.join(','), `a${','.repeat(BULK_UPLOAD_COLUMNS.length - 1)}`)),
      ),
      auditorBulk: await send('fund-request/bulk', form({}, 'upload', 'funds.csv', manyLines('tpa'))),
      mapping: await send(
        'mappings/create',
        form(
          { mappingMode: 'master', administrator: 'demo_test', mappingType: 'instrument_mapping' },
          'upload',
          'instrument_mapping.csv',
          manyLines('source_code,target_code', 'a'),
        ),
      ),
      check: await send('sdm-upload/validate-mappings', form({}, 'mappings', 'instrument_mapping.csv', manyLines('source_code,target_code', 'a,b'))),
      onboarding: await send(
        'sdm-upload/create',
        form({ code: 'demo_test' }, 'mappings', 'instrument_mapping.csv', manyLines('source_code,target_code', 'a,b')),
      ),
    };
    expect(answers.pbi.status).toBe(400);
    expect(answers.pbi.body.message).toBe('funds.csv has more than 100000 rows, the most a PowerBI input may have (setting maxUploadRows)');
    for (const bulk of [answers.bulk, answers.auditorBulk]) {
      expect(bulk.status).toBe(400);
      expect(bulk.body.message).toBe(
        'funds.csv: the file has more than 20000 rows, the most one bulk upload may have (setting maxBulkUploadRows); split it into several files',
      );
    }
    const tooLong = 'instrument_mapping.csv has more than 100000 rows, the most a mapping file may have (setting maxUploadRows)';
    expect(answers.mapping.status).toBe(400);
    expect(answers.mapping.body).toMatchObject({ errors: [tooLong], totalErrorsFound: 1 });
    expect(answers.check.body.payload.instrument_mapping).toMatchObject({ valid: false, errors: [tooLong], totalErrorsFound: 1 });
    expect(answers.onboarding.status).toBe(400);
    expect(answers.onboarding.body.errors).toEqual([`instrument_mapping.csv: ${tooLong}`]);
    for (const [name, answer] of Object.entries(answers)) expect(JSON.stringify(answer.body).length, name).toBeLessThan(4000);
    const seen = tasks.slice(from);
    expect(new Set(seen.map((e) => e.task))).toEqual(
      new Set(['pbi-inputs.count-rows', 'bulk-upload.validate', 'bulk-upload.prepare-upload', 'mappings.parse', 'sdm-upload.read-mappings']),
    );
    expect(seen.every((e) => e.thread !== threadId)).toBe(true);
  }, 120_000);

  it('is refused as a self-onboarding fund_request.csv, checked in a pool thread', async () => {
    const created = await send(
      'sdm-upload/create',
      form({ code: 'demo_test' }, 'mappings', 'instrument_mapping.csv', Buffer.from('source_code,target_code\nMUNI,DEBT\n')),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    refuseHeavyWork(true);
    const added = await send('sdm-upload/add-file', form({ sdmUploadId: String(created.body.payload.id) }, 'upload', 'fund_request.csv', manyLines('tpa')));
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(JSON.stringify(added.body)).toContain('the file has more than 20000 rows');
  });

  it('within the limits is still taken: a PowerBI input of 100,000 rows is saved with its row count', async () => {
    const rows = Buffer.from(`fund_code,administrator,engagement_code\n${'S000012000,demo_test,ENG-1\n'.repeat(100_000)}`);
    const saved = await send('pbi-inputs/save', form({ pbiInputsTypes: 'fund_mapping' }, 'upload', 'funds.csv', rows));
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    expect(saved.body.payload).toMatchObject({ file_name: 'funds.csv', row_count: 100_000 });
  });
});

describe('an answer with many errors', () => {
  it(`lists ${MAX_ERRORS_IN_ANSWER} and counts the ones left out`, async () => {
    const header = Array.from({ length: 500 }, (_, i) => `column_${i + 1}`).join(',');
    const res = await send('funds/upload', form({}, 'upload', 'funds.csv', Buffer.from(`${header}\n${'x,'.repeat(499)}x\n`)));
    expect(res.status).toBe(400);
    const total = res.body.totalErrorsFound as number;
    expect(total).toBeGreaterThan(500);
    expect(res.body.errors).toHaveLength(MAX_ERRORS_IN_ANSWER);
    expect(res.body.errors[0]).toBe("funds.csv, header column 1 'column_1' is not a template column");
    expect(res.body.errorsLeftOut).toBe(total - (MAX_ERRORS_IN_ANSWER - 1));
    expect(res.body.errors.at(-1)).toBe(`... and ${total - (MAX_ERRORS_IN_ANSWER - 1)} more error(s) not listed`);
  });
});
