/**
 * A 2 MB upload of a million short lines, sent over a real socket to the endpoints that read a
 * whole text file, while `/api/health` is asked again and again on other connections: health keeps
 * answering while the server works on each file (the reading happens in a pool thread, see
 * upload-limits.test.ts), and each upload is answered with a short, specific refusal.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_UPLOAD_COLUMNS } from '../services/bulk-upload/columns.js';
import { createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { startServer, type RunningServer } from './server.js';

let ctx: TestContext;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext({ pbiInputs: true });
  server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(async () => {
  await server?.close();
  await ctx?.dispose();
});

/** A header line and a million short lines: 2 MB. */
const manyLines = (header: string, line: string) => Buffer.from(`${header}\n${`${line}\n`.repeat(1_000_000)}`);

/** A multipart body built by hand, so that the moment it has all been sent is known. */
function multipart(fields: Record<string, string>, field: string, name: string, bytes: Buffer): { body: Buffer; type: string } {
  const boundary = '----fund-audit-upload-health';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`));
  parts.push(bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** Sends the upload; `sent` resolves once the whole body is on the wire, `answer` with the status and JSON body. */
function upload(path: string, form: { body: Buffer; type: string }) {
  let markSent!: () => void;
  const sent = new Promise<void>((r) => (markSent = r));
  const answer = new Promise<{ status: number; body: any; size: number }>((resolve, reject) => {
    const req = request(
      `${server.url}/api/v2.0/${path}`,
      { method: 'POST', headers: { 'content-type': form.type, 'content-length': form.body.length, 'x-access-token': token } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, body: JSON.parse(text), size: text.length });
        });
      },
    );
    req.on('error', reject);
    req.end(form.body, markSent);
  });
  return { sent, answer };
}

/** Asks `/api/health` one request after another until stopped; answers the statuses and when each came. */
function keepAskingHealth() {
  let running = true;
  const answers: Array<{ status: number; at: number }> = [];
  const done = (async () => {
    while (running) {
      const res = await fetch(`${server.url}/api/health`);
      await res.arrayBuffer();
      answers.push({ status: res.status, at: Date.now() });
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    answers,
    stop: async () => {
      running = false;
      await done;
      return answers;
    },
  };
}

describe('a million-line upload while health is asked', () => {
  it('leaves /api/health answering while each endpoint works on the file, and is refused with a short answer', async () => {
    const bulkLine = `a${','.repeat(BULK_UPLOAD_COLUMNS.length - 1)}`;
    const calls: Array<[string, () => { body: Buffer; type: string }, RegExp]> = [
      [
        'pbi-inputs/save',
        () => multipart({ pbiInputsTypes: 'fund_mapping' }, 'upload', 'funds.csv', manyLines('fund_code,administrator,engagement_code', 'a,b,c')),
        /funds\.csv has more than 100000 rows/,
      ],
      [
        'funds/upload',
        () => multipart({}, 'upload', 'funds.csv', manyLines(BULK_UPLOAD_COLUMNS.join(','), bulkLine)),
        /funds\.csv: the file has more than 20000 rows/,
      ],
      ['fund-request/bulk', () => multipart({}, 'upload', 'funds.csv', manyLines('tpa', 'a')), /funds\.csv: the file has more than 20000 rows/],
      [
        'mappings/create',
        () =>
          multipart(
            { mappingMode: 'master', administrator: 'demo_test', mappingType: 'instrument_mapping' },
            'upload',
            'instrument_mapping.csv',
            manyLines('source_code,target_code', 'a'),
          ),
        /instrument_mapping\.csv has more than 100000 rows/,
      ],
      [
        'sdm-upload/create',
        () => multipart({ code: 'demo_test' }, 'mappings', 'instrument_mapping.csv', manyLines('source_code,target_code', 'a,b')),
        /instrument_mapping\.csv has more than 100000 rows/,
      ],
    ];
    for (const [path, build, refusal] of calls) {
      const form = build();
      const health = keepAskingHealth();
      // health answers before the upload starts: the poller runs
      await expect.poll(() => health.answers.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const { sent, answer } = upload(path, form);
      await sent;
      const sentAt = Date.now();
      const answered = await answer;
      const answeredAt = Date.now();
      // health keeps being asked a little longer, then every answer it got is looked at
      await expect.poll(() => health.answers.filter((a) => a.at > answeredAt).length, { timeout: 10_000 }).toBeGreaterThan(0);
      const answers = await health.stop();
      expect(
        answers.every((a) => a.status === 200),
        path,
      ).toBe(true);
      // while the server read and refused the file, health was answered: that work did not hold the serving thread
      expect(answers.filter((a) => a.at > sentAt && a.at < answeredAt).length, path).toBeGreaterThan(0);
      expect(answered.status, path).toBe(400);
      expect(JSON.stringify(answered.body), path).toMatch(refusal);
      expect(answered.size, path).toBeLessThan(4000);
    }
  }, 180_000);
});
