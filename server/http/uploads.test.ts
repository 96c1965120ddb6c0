import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { storeOf } from '../db/dialect.js';
import { createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { startServer, type RunningServer } from './server.js';
import { UNREADABLE_PART_HEADER } from './multipart.js';

const LIMIT = 256 * 1024;
let ctx: TestContext;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext({ maxUploadBytes: LIMIT });
  token = await sessionToken(ctx, ctx.boot.admin.id);
  server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server.close();
  await ctx.dispose();
});

interface Sent {
  status: number;
  body: any;
  /** bytes of the body written when the answer arrived */
  sentWhenAnswered: number;
}

/**
 * Sends a request over a real socket; the body is written chunk by chunk (chunked transfer unless
 * `length` is given) and writing stops once the server has answered.
 */
function send(path: string, headers: Record<string, string>, chunks: () => Iterator<Buffer>): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(`${server.url}${path}`, { method: 'POST', headers: { 'x-access-token': token, ...headers } }, (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      const parts: Buffer[] = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString() || 'null'), sentWhenAnswered }));
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const it = chunks();
    const pump = () => {
      while (!answered) {
        const next = it.next();
        if (next.done) return req.end();
        sent += next.value.length;
        if (!req.write(next.value)) return req.once('drain', () => setTimeout(pump, 1));
      }
    };
    pump();
  });
}

const BOUNDARY = 'fundauditboundary';

function part(name: string, value: string, fileName?: string): Buffer {
  const disposition = fileName === undefined ? `form-data; name="${name}"` : `form-data; name="${name}"; filename="${fileName}"`;
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${fileName === undefined ? '' : 'Content-Type: text/csv\r\n'}\r\n${value}\r\n`);
}

function* multipart(fields: Array<[string, string]>, file: { field: string; name: string; size: number }): Generator<Buffer> {
  for (const [name, value] of fields) yield part(name, value);
  yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`);
  const line = Buffer.from('Security;Quantity;Market value\r\n'.padEnd(64 * 1024, 'x'));
  for (let left = file.size; left > 0; left -= line.length) yield left >= line.length ? line : line.subarray(0, left);
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

describe('upload bodies', () => {
  it('answers 413 for an over-limit chunked import before the rest of the body is sent, and keeps nothing of it', async () => {
    const { db, tables: t } = storeOf(ctx);
    const before = (await db.select().from(t.importFiles)).length;
    const total = 50 * LIMIT;
    const res = await send('/api/v2.0/import/files', multipartHeaders, () =>
      multipart([['administrator', 'demo_test']], { field: 'upload', name: 'holdings.csv', size: total }),
    );
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(`File upload failed. File size limit has been reached ${LIMIT}B`);
    expect(res.sentWhenAnswered).toBeLessThan(total / 4);
    expect(await db.select().from(t.importFiles)).toHaveLength(before);
    expect(readdirSync(join(ctx.blobs.root, 'tmp'))).toEqual([]);
  });

  it('answers 413 (not 400) for an over-limit mapping upload', async () => {
    const res = await send('/api/v2.0/mappings/create', multipartHeaders, () =>
      multipart(
        [
          ['mappingName', 'Instrument types'],
          ['mappingType', 'InstrumentType'],
          ['mappingMode', 'master'],
          ['administrator', 'demo_test'],
        ],
        { field: 'upload', name: 'mapping.csv', size: 4 * LIMIT },
      ),
    );
    expect(res.status).toBe(413);
  });

  it('stores an import streamed in under the limit, with the hash of its content', async () => {
    const chunks = [...multipart([['administrator', 'demo_test']], { field: 'upload', name: 'streamed.csv', size: LIMIT / 2 })];
    const res = await send('/api/v2.0/import/files', multipartHeaders, () => chunks.values());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = res.body.payload;
    const { db, tables: t } = storeOf(ctx);
    const [stored] = await db.select().from(t.importFiles).where(eq(t.importFiles.id, row.id));
    expect(stored!.size).toBe(LIMIT / 2);
    expect(ctx.blobs.get(stored!.sha256).length).toBe(LIMIT / 2);
    expect(readdirSync(join(ctx.blobs.root, 'tmp'))).toEqual([]);
  });

  it('refuses a file name with a line break with a message naming the file', async () => {
    const body = Buffer.concat([
      part('administrator', 'demo_test'),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename*=UTF-8''bad%0Aname.csv\r\n\r\nA;B\r\n--${BOUNDARY}--\r\n`),
    ]);
    const res = await send('/api/v2.0/import/files', multipartHeaders, function* () {
      yield body;
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The file name "bad\\nname.csv" contains a line break, control character or path separator; rename the file and upload it again',
    );
  });

  it('refuses a NUL in a file name, sent raw or encoded, and a name too long, each with a message saying why', async () => {
    const upload = (disposition: Buffer) => {
      const body = Buffer.concat([
        part('administrator', 'demo_test'),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; `),
        disposition,
        Buffer.from(`\r\n\r\nA;B\r\n1;2\r\n--${BOUNDARY}--\r\n`),
      ]);
      return send('/api/v2.0/import/files', multipartHeaders, function* () {
        yield body;
      });
    };
    const nulMessage = 'The file name "bad\\0name.csv" contains a NUL character (\\0), which no file name may hold; rename the file and upload it again';
    const encoded = await upload(Buffer.from("filename*=UTF-8''bad%00name.csv"));
    expect(encoded.status).toBe(400);
    expect(encoded.body.message).toBe(nulMessage);
    // a raw NUL cannot even be read as a header
    const raw = await upload(Buffer.from('filename="bad\u0000name.csv"', 'latin1'));
    expect(raw.status).toBe(400);
    expect(raw.body.message).toBe(UNREADABLE_PART_HEADER);
    const long = `${'trial-balance-'.repeat(25)}.csv`; // 354 characters
    const tooLong = await upload(Buffer.from(`filename="${long}"`));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(
      `The file name "${long.slice(0, 40)}...${long.slice(-12)}" is 354 bytes long; a file name may have at most 255 bytes (as many plain letters, fewer accented or non-Latin ones): rename the file to something shorter and upload it again`,
    );
    // nothing was kept of the refused uploads
    expect(readdirSync(join(ctx.blobs.root, 'tmp'))).toEqual([]);
    const fits = await upload(Buffer.from(`filename="${'b'.repeat(251)}.csv"`));
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
  });

  it('reads a quote in a file name as browsers send it (%22), refuses a line break sent as %0A, and explains an unescaped quote', async () => {
    const upload = (disposition: string) => {
      const body = Buffer.concat([
        part('administrator', 'demo_test'),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; ${disposition}\r\n\r\nA;B\r\n1;2\r\n--${BOUNDARY}--\r\n`),
      ]);
      return send('/api/v2.0/import/files', multipartHeaders, function* () {
        yield body;
      });
    };
    const quoted = await upload('filename="TB %22final%22.csv"');
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    expect(quoted.body.payload[0].fileName).toBe('TB "final".csv');
    const lineBreak = await upload('filename="TB%0Afinal.csv"');
    expect(lineBreak.status).toBe(400);
    expect(lineBreak.body.message).toMatch(/^The file name "TB\\nfinal.csv" contains a line break/);
    const raw = await upload('filename="TB "final".csv"');
    expect(raw.status).toBe(400);
    expect(raw.body.message).toBe(
      "No file was uploaded (multipart field 'upload'); a quote, CR or LF in a file name must be sent as %22, %0D or %0A, as browsers do",
    );
  });

  it('answers 400 naming the depth limit for a JSON body nested too deep', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await send('/api/v2.0/import/list', { 'content-type': 'application/json' }, function* () {
      yield Buffer.from(deep);
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is nested deeper than 64 levels');
  });

  it('answers 413 for a chunked JSON body over the limit, before the rest of it is sent', async () => {
    // 128 times the limit: far more than the sockets' buffers hold, so an answer given only after
    // reading the whole body would come after all of it was sent
    const chunk = Buffer.alloc(LIMIT / 8, 'a');
    const total = 1024 * chunk.length;
    const res = await send('/api/v2.0/import/list', { 'content-type': 'application/json' }, function* () {
      yield Buffer.from('{"filters":{"administrator":"');
      for (let i = 0; i < 1024; i++) yield chunk;
      yield Buffer.from('"}}');
    });
    expect(res.status).toBe(413);
    expect(res.sentWhenAnswered).toBeLessThan(total / 4);
  });
});
