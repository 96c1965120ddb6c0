/**
 * The spec's response envelope `{success, payload, errors}` and the one place where errors become
 * HTTP answers: 400 validation (message, errors[], totalErrorsFound), 401, 403, 404, 409, 413, and
 * 500 'An error occurred' with nothing internal sent to the client (the stack is logged instead).
 * An answer lists at most 100 errors and counts the others (`errorsLeftOut`).
 */
import { gzipSync } from 'node:zlib';
import { encodePayload, type EncodedPayload } from '../lib/encoded.js';
import type { Logger } from '../log.js';
import { AppError, ValidationError, type ErrorItem } from '../errors.js';

export interface Envelope<T = unknown> {
  success: boolean;
  payload: T | null;
  errors: ErrorItem[];
  message?: string;
  totalErrorsFound?: number;
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
      { success: false, payload: null, ...cappedErrors(err.errors), message: err.message, totalErrorsFound: err.totalErrorsFound, ...err.extra },
      400,
    );
  }
  if (err instanceof AppError) {
    return json({ success: false, payload: null, ...cappedErrors(err.errors), message: err.message }, err.status);
  }
  log.error({ err, ...where }, 'unhandled error');
  return json({ success: false, payload: null, errors: ['An error occurred'], message: 'An error occurred' }, 500);
}
