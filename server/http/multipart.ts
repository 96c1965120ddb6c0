/**
 * Reading uploaded files from multipart requests (field names from the spec: `upload` for bulk
 * uploads and imports). The body is parsed as it streams in (busboy): each file goes straight to
 * a temporary file in the blob store's tmp folder and is hashed on the way, so the serving thread
 * never holds or hashes a whole upload in one piece, and the upload limit answers 413 as soon as
 * the body passes it (chunked bodies included), before the rest is read. Temporary files are
 * removed when the request ends (see `disposeUploads`). Undecodable bodies become the spec's
 * 'Unexpected end of multipart data' validation error.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { H3Event } from 'h3';
import { z, type ZodType } from 'zod';
import type { AppContext } from '../context.js';
import { fieldValidationError, type FieldError } from './envelope.js';
import { fileNameProblem } from '../../rules/files.js';
import { TooLargeError, ValidationError } from '../errors.js';

export interface UploadedFile {
  fileName: string;
  bytes: Uint8Array;
}

/** A file of a multipart form, already on disk: its temporary path, sha256 (hex) and size in bytes. */
export interface StagedUpload {
  field: string;
  fileName: string;
  path: string;
  sha256: string;
  size: number;
}

/** The text fields and staged files of one multipart request. */
export class UploadForm {
  constructor(
    private readonly fields: Map<string, string[]>,
    readonly files: StagedUpload[],
  ) {}

  /** The first value of a text field, or null. */
  get(name: string): string | null {
    return this.fields.get(name)?.[0] ?? null;
  }

  /** The first value of every text field, by name. */
  texts(): Record<string, string> {
    return Object.fromEntries([...this.fields].map(([name, values]) => [name, values[0]]));
  }

  /** true when a text field or a file field of this name was sent. */
  has(name: string): boolean {
    return this.fields.has(name) || this.files.some((f) => f.field === name);
  }

  /**
   * The staged files of one field, in order.
   * @throws ValidationError when the field came as text: its part named a file the parser could
   *   not read (an unescaped quote in `filename="..."`)
   */
  staged(field: string): StagedUpload[] {
    const files = this.files.filter((f) => f.field === field);
    if (!files.length && this.fields.has(field))
      throw new ValidationError(
        `The file in the upload's '${field}' part has a file name that cannot be read: a quote, CR or LF in a file name must be sent as %22, %0D or %0A, as browsers do`,
      );
    return files;
  }
}

const CLEANUP = Symbol('uploads');
/** The answer to a part header the parser cannot read. */
export const UNREADABLE_PART_HEADER =
  'A part of the upload has a header that cannot be read: its file name holds a character no header may carry (a NUL or another control character); rename the file and upload it again';
const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 1024 * 1024;
/**
 * How much of an upload may wait in memory between the socket, the parser and the file. Small
 * buffers (Node's 16-64 KiB) make every few KiB wait for a disk write to come back through the
 * event loop, which starves an upload while the server answers many other calls.
 */
const BUFFER_BYTES = 4 * 1024 * 1024;

/** The request body as a Node stream (the Node request itself when served by Node). */
function bodyStream(event: H3Event): Readable {
  const node = (event as unknown as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  if (node) return node;
  const body = event.req.body;
  if (!body) throw new ValidationError('Unexpected end of multipart data');
  return Readable.fromWeb(body as import('node:stream/web').ReadableStream);
}

/**
 * Reads a multipart form, streaming each file to a temporary file in the blob store's tmp folder
 * (same filesystem, so an import can move it into the store without copying).
 * The limit on the whole body (and on each file) is `ctx.config.maxUploadBytes`; passing it
 * answers 413 at once.
 * @throws TooLargeError (413) over the limit; ValidationError for a body that is not multipart,
 *   is malformed or truncated, or names a file with a NUL or other control character, a path
 *   separator or more than 255 bytes (rules/files.ts `fileNameProblem`)
 */
export async function readForm(event: H3Event, ctx: AppContext): Promise<UploadForm> {
  const maxBytes = ctx.config.maxUploadBytes;
  const length = Number(event.req.headers.get('content-length') ?? 0);
  if (length > maxBytes) throw new TooLargeError(maxBytes);
  const type = event.req.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) throw new ValidationError('Expected a multipart/form-data upload');
  const staged: StagedUpload[] = [];
  (event.context as Record<symbol, StagedUpload[]>)[CLEANUP] = staged;
  const fields = new Map<string, string[]>();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: { fileSize: maxBytes, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
      highWaterMark: BUFFER_BYTES,
      fileHwm: BUFFER_BYTES,
      defParamCharset: 'utf8',
    });
  } catch {
    throw new ValidationError('Unexpected end of multipart data');
  }
  const source = bodyStream(event);
  let received = 0;
  let failure: Error | undefined;
  const writes: Promise<void>[] = [];
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const fail = (err: Error) => {
    if (failure) return;
    failure = err;
    source.unpipe(parser);
    source.resume(); // let the rest of the body drain without keeping it
    parser.destroy();
    finish();
  };
  source.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) fail(new TooLargeError(maxBytes));
  });
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) return fail(new ValidationError(`The form field '${name}' is longer than ${MAX_FIELD_BYTES} bytes`));
    fields.set(name, [...(fields.get(name) ?? []), value]);
  });
  parser.on('fieldsLimit', () => fail(new ValidationError(`The form has more than ${MAX_FIELDS} fields`)));
  parser.on('file', (field, stream, info) => {
    stream.on('error', () => {}); // a failed upload is reported once, by `fail`
    // browsers send '"', CR and LF of a file name as %22, %0D and %0A (HTML's multipart encoding)
    const fileName = (info.filename ?? '').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
    const nameProblem = fileNameProblem(fileName);
    if (nameProblem) {
      stream.resume();
      return fail(new ValidationError(nameProblem));
    }
    const path = ctx.blobs.tmpPath('.upload');
    const hash = createHash('sha256');
    const entry: StagedUpload = { field, fileName, path, sha256: '', size: 0 };
    staged.push(entry);
    stream.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      entry.size += chunk.length;
    });
    stream.on('limit', () => fail(new TooLargeError(maxBytes, fileName || 'File')));
    writes.push(
      pipeline(stream, createWriteStream(path, { highWaterMark: BUFFER_BYTES })).then(
        () => {
          entry.sha256 = hash.digest('hex');
        },
        (err: Error) => fail(err),
      ),
    );
  });
  parser.on('close', () => finish());
  parser.on('error', (err: Error) => fail(err));
  source.on('error', (err) => fail(err));
  source.on('aborted', () => fail(new ValidationError('Unexpected end of multipart data')));
  source.pipe(parser);
  await finished;
  await Promise.allSettled(writes);
  if (failure) {
    await disposeUploads(event);
    if (failure instanceof TooLargeError || failure instanceof ValidationError) throw failure;
    // busboy refuses a part header holding a byte no header may carry (a raw NUL in a file name)
    if (failure.message === 'Malformed part header') throw new ValidationError(UNREADABLE_PART_HEADER);
    throw new ValidationError('Unexpected end of multipart data', [failure.message]);
  }
  return new UploadForm(fields, staged);
}

/** Removes the temporary files of a request's multipart form (no-op when there was none). */
export async function disposeUploads(event: H3Event): Promise<void> {
  const context = event.context as Record<symbol, StagedUpload[] | undefined>;
  const staged = context[CLEANUP];
  if (!staged) return;
  context[CLEANUP] = undefined;
  await Promise.all(staged.map((f) => rm(f.path, { force: true })));
}

/**
 * The error for a form without a file in `field`. A part whose `filename="..."` holds an
 * unescaped quote, CR or LF cannot be read at all, so the message says how to send one.
 */
export function noFileError(field: string, what = 'file'): ValidationError {
  return new ValidationError(
    `No ${what} was uploaded (multipart field '${field}'); a quote, CR or LF in a file name must be sent as %22, %0D or %0A, as browsers do`,
  );
}

/** Files of one field, in order, with their bytes read back (for small files: csv, mappings). */
export async function filesOf(form: UploadForm, field: string): Promise<UploadedFile[]> {
  return Promise.all(form.staged(field).map(async (f) => ({ fileName: f.fileName, bytes: new Uint8Array(await readFile(f.path)) })));
}

/**
 * Exactly one file from a field.
 * @throws ValidationError when there is none or more than one
 */
export async function singleFile(form: UploadForm, field: string, what = 'file'): Promise<UploadedFile> {
  const files = await filesOf(form, field);
  if (!files.length) throw noFileError(field, what);
  if (files.length > 1) throw new ValidationError(`Only one ${what} can be uploaded at a time (got ${files.length})`);
  return files[0];
}

/** What a route declares about one file part of its form (see `formFiles`). */
export interface FilePart {
  description: string;
  /** Fewest files the part takes (1: required). */
  min: number;
  /** Most files the part takes. */
  max: number;
  /** Largest file in bytes (below the upload limit, which applies anyway). */
  maxBytes?: number;
  /** Other part names whose files count as this part's (older clients' names). */
  aliases: string[];
  /** What the file is, for messages ('mapping csv'). */
  what: string;
  /** The message when more than `max` files came (default: 'Only one <what> can be uploaded at a time (got N)'). */
  tooMany?: string;
  /** The message when fewer than `min` files came (default: `noFileError`'s 'No <what> was uploaded ...'). */
  missing?: string;
}

const FILE_PARTS = new WeakMap<ZodType, FilePart>();

/**
 * The schema of a file part of a multipart form, for a route's `form` schema: the files that came
 * in the part (and its aliases), staged on disk, in order. The route layer checks their number and
 * sizes before the handler runs; the OpenAPI document shows the part as `format: binary`.
 * @param opts.min fewest files (default 1), opts.max most files (default 1; `Infinity` for no limit)
 */
export function formFiles(opts: {
  description: string;
  what?: string;
  min?: number;
  max?: number;
  maxBytes?: number;
  aliases?: string[];
  tooMany?: string;
  missing?: string;
}) {
  const schema = z.array(z.custom<StagedUpload>((v) => typeof v === 'object' && v !== null && 'path' in v));
  FILE_PARTS.set(schema, { min: 1, max: 1, aliases: [], what: 'file', ...opts });
  return schema;
}

/** The file part a schema of a form declares, or undefined for a text field. */
export function filePartOf(schema: unknown): FilePart | undefined {
  return FILE_PARTS.get(schema as ZodType);
}

/** The parts of a route's form schema: each name with its schema (a `z.object`). */
export function formParts(form: ZodType): Array<[string, ZodType]> {
  const shape = (form as unknown as { shape?: Record<string, ZodType> }).shape ?? {};
  return Object.entries(shape);
}

/**
 * Checks a multipart form against a route's `form` schema and returns its parsed value: text
 * fields by name (the first value), file parts as their staged files. Text fields it does not
 * declare are ignored; files in a part it does not declare are refused.
 * @throws ValidationError naming every bad part in `fieldErrors` (`missing_file`, `too_many_files`,
 *   `too_large`, `unexpected_field`, or zod's code for a text field); its message is the first problem's
 */
export function parseForm(form: UploadForm, schema: ZodType): unknown {
  const problems: FieldError[] = [];
  const value: Record<string, unknown> = { ...form.texts() };
  const taken = new Set<string>();
  for (const [name, part] of formParts(schema)) {
    const file = filePartOf(part);
    if (!file) continue;
    delete value[name];
    const names = [name, ...file.aliases];
    names.forEach((n) => taken.add(n));
    const files = names.flatMap((n) => (n === name ? form.staged(n) : form.files.filter((f) => f.field === n)));
    value[name] = files;
    if (files.length < file.min)
      problems.push({ in: 'form', field: name, code: 'missing_file', message: file.missing ?? noFileError(name, file.what).message });
    else if (files.length > file.max)
      problems.push({
        in: 'form',
        field: name,
        code: 'too_many_files',
        message: file.tooMany ?? `Only one ${file.what} can be uploaded at a time (got ${files.length})`,
      });
    for (const f of files)
      if (file.maxBytes !== undefined && f.size > file.maxBytes)
        problems.push({
          in: 'form',
          field: name,
          code: 'too_large',
          message: `${f.fileName} is larger than the limit of ${file.maxBytes} bytes for ${file.what}`,
        });
  }
  for (const f of form.files)
    if (!taken.has(f.field))
      problems.push({
        in: 'form',
        field: f.field,
        code: 'unexpected_field',
        message: `The upload has a file in the part '${f.field}', which this call does not take (it takes: ${[...taken].join(', ')})`,
      });
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    for (const i of parsed.error.issues)
      problems.push({
        in: 'form',
        field: i.path.map(String).join('.'),
        code: i.code === 'invalid_format' ? `invalid_${i.format}` : i.code,
        message: i.message,
      });
  // in the order the route declares its parts (the first part's problem leads the message)
  const order = formParts(schema).map(([name]) => name);
  const rank = (f: FieldError) => (order.includes(f.field.split('.')[0]) ? order.indexOf(f.field.split('.')[0]) : order.length);
  problems.sort((a, b) => rank(a) - rank(b));
  if (problems.length) throw fieldValidationError(problems[0].message, problems, { prefixed: false });
  return parsed.success ? parsed.data : value;
}

/** The bytes of staged files read back (for small files: csv, mappings). */
export async function readStaged(files: StagedUpload[]): Promise<UploadedFile[]> {
  return Promise.all(files.map(async (f) => ({ fileName: f.fileName, bytes: new Uint8Array(await readFile(f.path)) })));
}

/** A file download response. */
export function fileResponse(body: Uint8Array | string, fileName: string, contentType: string): Response {
  const data = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return new Response(new Uint8Array(data), {
    headers: {
      'content-type': contentType,
      'content-disposition': `attachment; filename="${fileName.replace(/"/g, '')}"`,
      'content-length': String(data.byteLength),
    },
  });
}
