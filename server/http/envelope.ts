/**
 * The spec's response envelope `{success, payload, errors}` and the one place where errors become
 * HTTP answers: 400 validation (message, errors[], totalErrorsFound), 401, 403, 404, 409, 413, and
 * 500 'An error occurred' with nothing internal sent to the client (the stack is logged instead).
 * An answer lists at most 100 errors and counts the others (`errorsLeftOut`). Every error answer
 * also carries a machine-readable `code` (`ERROR_CODES`), and a validation error the route layer
 * found names each bad field in `fieldErrors` ({in, field, code, message}) beside the messages.
 */
import { gzipSync } from 'node:zlib';
import { encodePayload, type EncodedPayload } from '../lib/encoded.js';
import type { Logger } from '../log.js';
import { AppError, ValidationError, type ErrorItem } from '../errors.js';

/** Where a bad field was sent: the JSON body, the query, or a multipart form's files and fields. */
export type FieldLocation = 'body' | 'query' | 'form';

/**
 * One bad field of a request: where it was sent, its name (dotted path inside that part, e.g.
 * `pagination.limit`, or `''` for the whole part), a stable code (zod's issue code, or
 * `invalid_<format>` for a failed format such as `invalid_email`; `missing_file`, `too_many_files`,
 * `unexpected_field` and `too_large` for multipart parts) and the message.
 */
export interface FieldError {
  in: FieldLocation;
  field: string;
  code: string;
  message: string;
}

/** The `code` of an error answer, by HTTP status (anything else: `error`). */
export const ERROR_CODES: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  429: 'rate_limited',
  500: 'internal_error',
};

/** The `code` of an error answer of this HTTP status. */
export const errorCode = (status: number): string => ERROR_CODES[status] ?? 'error';

export interface Envelope<T = unknown> {
  success: boolean;
  payload: T | null;
  errors: ErrorItem[];
  message?: string;
  totalErrorsFound?: number;
  /** Error answers: the kind of error (`ERROR_CODES`). */
  code?: string;
  /** Validation errors of the route layer: each bad field with its code. */
  fieldErrors?: FieldError[];
  [key: string]: unknown;
}

/** JSON response helper. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** A successful answer. */
export function ok<T>(payload: T, message?: string): Response {
  const body: Envelope<T> = { success: true, payload, errors: [] };
  if (message) body.message = message;
  return json(body);
}

const encodedPayloads = new WeakMap<object, EncodedPayload>();

/**
 * A successful answer whose payload is already JSON text (`source.json`, e.g. a cached listing
 * page), or already encoded (`source.encoded`, made by a pool thread). The encoded envelope, and its gzip form for clients that accept it, are made once per
 * `source` object and reused while that object lives; `source.encoded` gives them made ahead.
 */
export function okSerialized(
  source: { readonly json: string; readonly encoded?: EncodedPayload } | { readonly encoded: EncodedPayload },
  acceptsGzip: boolean,
): Response {
  let encoded = encodedPayloads.get(source);
  if (!encoded) {
    encoded = source.encoded ? { ...source.encoded } : encodePayload((source as { json: string }).json, false);
    encodedPayloads.set(source, encoded);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', vary: 'accept-encoding' };
  if (acceptsGzip && encoded.body.length > 1024) {
    encoded.gzip ??= new Uint8Array(gzipSync(encoded.body));
    return new Response(encoded.gzip, { status: 200, headers: { ...headers, 'content-encoding': 'gzip' } });
  }
  return new Response(encoded.body, { status: 200, headers });
}

/** Most errors one answer lists; the rest are counted in `errorsLeftOut`. */
export const MAX_ERRORS_IN_ANSWER = 100;

/**
 * The errors an answer lists: at most `MAX_ERRORS_IN_ANSWER`, the last item then saying how many
 * more there were, and `errorsLeftOut` counting them (absent when none was left out).
 */
export function cappedErrors(errors: ErrorItem[]): { errors: ErrorItem[]; errorsLeftOut?: number } {
  if (errors.length <= MAX_ERRORS_IN_ANSWER) return { errors };
  const shown = errors.slice(0, MAX_ERRORS_IN_ANSWER - 1);
  const left = errors.length - shown.length;
  return { errors: [...shown, `... and ${left} more error(s) not listed`], errorsLeftOut: left };
}

/** Maps any thrown value to an envelope response; unexpected errors are logged with their stack. */
export function errorResponse(err: unknown, log: Logger, where: Record<string, unknown>): Response {
  if (err instanceof ValidationError) {
    return json(
      {
        success: false,
        payload: null,
        ...cappedErrors(err.errors),
        message: err.message,
        totalErrorsFound: err.totalErrorsFound,
        code: errorCode(400),
        ...err.extra,
      },
      400,
    );
  }
  if (err instanceof AppError) {
    return json({ success: false, payload: null, ...cappedErrors(err.errors), message: err.message, code: errorCode(err.status) }, err.status);
  }
  log.error({ err, ...where }, 'unhandled error');
  return json({ success: false, payload: null, errors: ['An error occurred'], message: 'An error occurred', code: errorCode(500) }, 500);
}

/**
 * A validation error that names its bad fields: `errors` keeps the messages (`<in>.<field>: message`,
 * or the bare message with `prefixed: false`) and the answer's `fieldErrors` lists them with their codes.
 */
export function fieldValidationError(message: string, fields: FieldError[], opts: { prefixed?: boolean } = {}): ValidationError {
  const errors = fields.map((f) => (opts.prefixed === false ? f.message : `${[f.in, f.field].filter(Boolean).join('.')}: ${f.message}`));
  return new ValidationError(message, errors, errors.length, { fieldErrors: fields.slice(0, MAX_ERRORS_IN_ANSWER) });
}
