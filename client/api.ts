/**
 * The one typed API client core, shared by the browser (web/src/api/client.ts) and the CLI's remote
 * mode (cli/remote.ts): `sendOperation(options, 'POST /api/v2.0/funds/listing', {body})` builds the
 * URL from the operation name, its path parameters and query, sends the JSON body (or a FormData
 * upload) with the caller's headers, and reads the `{success, payload, errors}` envelope. Types come
 * from the contract read off the server's route table (server/http/contract.ts, imported as types
 * only); what a failure means (a notification, a redirect, a typed error) is the caller's.
 * Framework-free: runs in the browser and in Node.
 */
import type { ApiContract, ApiResponse, Operation } from '../server/http/contract.js';

/** A structured error entry; plain strings are also allowed in `errors`. */
export interface WireErrorEntry {
  id?: string | number;
  type?: string;
  message: string;
}

/** One bad field of a request: where it was sent, its (dotted) name, a stable code and the message. */
export interface WireFieldError {
  in: 'body' | 'query' | 'form';
  /** e.g. 'email', 'pagination.limit', 'upload'; '' for the whole part. */
  field: string;
  /** e.g. 'invalid_type', 'too_small', 'invalid_email', 'missing_file', 'unexpected_field'. */
  code: string;
  message: string;
}

/** The kind of an error answer, by HTTP status. */
export type WireErrorCode =
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'internal_error'
  | 'error';

/** The envelope every API answer is wrapped in. */
export interface WireEnvelope<T> {
  success: boolean;
  payload: T;
  errors: Array<string | WireErrorEntry>;
  message?: string;
  totalErrorsFound?: number;
  /** Error answers: the kind of error. */
  code?: WireErrorCode;
  /** Validation errors: each bad field with its code, beside the messages of `errors`. */
  fieldErrors?: WireFieldError[];
}

type Field<Name extends string, T, Optional extends boolean> = [T] extends [undefined]
  ? { [P in Name]?: undefined }
  : Optional extends true
    ? { [P in Name]?: T }
    : { [P in Name]: T };

/** What a call sends: path parameters and body when the route has them, the query when wanted. */
export type CallInput<K extends Operation> = Field<'params', ApiContract[K]['params'], false> &
  Field<'query', ApiContract[K]['query'], true> &
  ([ApiContract[K]['body']] extends [undefined] ? { body?: FormData | Record<string, never> } : { body: ApiContract[K]['body'] });

/** How to send: the address before `/api`, the transport and the headers of every call. */
export interface ApiClientOptions {
  /** What comes before `/api`: '' (same origin), a base path ('/fund-audit') or a server ('https://host/fund-audit'). */
  baseUrl: string;
  /** Sends one request (the browser's fetch, or the CLI's fetch with retries); may throw on connection errors. */
  send: (url: string, init: RequestInit, operation: Operation) => Promise<Response>;
  /** Headers of every call (the token). */
  headers?: () => Record<string, string>;
}

/** The answer to one call: its HTTP status and the envelope (null when the body is not one). */
export interface Answer<T> {
  status: number;
  /** HTTP 2xx and `success` not false. */
  ok: boolean;
  envelope: WireEnvelope<T> | null;
}

/**
 * The method and URL path of an operation.
 * @param operation e.g. `'GET /api/v2.0/fund/:id'`
 * @param params values of the `:name` segments (URL-encoded here)
 * @param query query parameters; undefined and null values are left out, arrays repeat the name
 * @throws Error naming the operation and the parameter when a path parameter is missing
 */
export function operationUrl(operation: string, params?: Record<string, string | number>, query?: Record<string, unknown>): { method: string; path: string } {
  const space = operation.indexOf(' ');
  const method = operation.slice(0, space);
  const target = operation.slice(space + 1);
  const q = target.indexOf('?');
  const [rawPath, given] = q === -1 ? [target, ''] : [target.slice(0, q), target.slice(q + 1)];
  const path = rawPath.replace(/\/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${operation}: the path parameter ${name} is missing`);
    return `/${encodeURIComponent(String(value))}`;
  });
  const search = new URLSearchParams(given);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const qs = search.toString();
  return { method, path: qs ? `${path}?${qs}` : path };
}

function isEnvelope(value: unknown): value is WireEnvelope<unknown> {
  return typeof value === 'object' && value !== null && 'success' in value;
}

/**
 * Sends one operation and reads its envelope. Connection errors of `send` are not caught.
 * @returns the status, whether it succeeded and the envelope (payload typed by the contract)
 */
export async function sendOperation<K extends Operation>(
  options: ApiClientOptions,
  operation: K,
  input: CallInput<K>,
  init: { signal?: AbortSignal } = {},
): Promise<Answer<ApiResponse<K>>> {
  const { params, query, body } = input as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
  const { method, path } = operationUrl(operation, params, query);
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers?.() ?? {}) };
  let payload: BodyInit | undefined;
  if (typeof FormData !== 'undefined' && body instanceof FormData) payload = body;
  else if (body !== undefined || method === 'POST') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body ?? {});
  }
  const res = await options.send(`${options.baseUrl.replace(/\/+$/, '')}${path}`, { method, headers, body: payload, signal: init.signal }, operation);
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  const envelope = isEnvelope(data) ? (data as WireEnvelope<ApiResponse<K>>) : null;
  return { status: res.status, ok: res.ok && envelope !== null && envelope.success !== false, envelope };
}
