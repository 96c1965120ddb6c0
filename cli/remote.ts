/**
 * Calls a running Fund Audit server for commands given `--server URL --token KEY` (or
 * `FUND_AUDIT_SERVER` / `FUND_AUDIT_TOKEN`): the same envelope as the browser, with failures turned
 * into the same typed errors services throw, so a command prints and exits the same way locally and
 * remotely. Connection errors are retried with backoff (see `fetchWithRetry`).
 */
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../server/errors.js';
import type { GlobalOptions } from './global.js';

/** Whether the command should go to a server rather than the local data directory. */
export const isRemote = (opts: GlobalOptions) => !!opts.server;

/**
 * Sends one API call (`path` below `/api/v2.0`, or absolute from `/api`).
 * @returns the envelope's payload
 * @throws the typed error matching the answer's status
 */
export async function remoteCall<T = unknown>(opts: GlobalOptions, method: string, path: string, body?: unknown): Promise<T> {
  const token = opts.token ?? process.env.FUND_AUDIT_TOKEN;
  if (!token) throw new UnauthorizedError('--server needs --token KEY (or FUND_AUDIT_TOKEN): create one with the key generator');
  const url = `${opts.server!.replace(/\/$/, '')}${path.startsWith('/api') ? path : `/api/v2.0/${path.replace(/^\//, '')}`}`;
  const headers: Record<string, string> = { 'x-access-token': token };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetchWithRetry(opts, url, { method, headers, body: payload }, isIdempotent(method, path));
  const text = await res.text();
  let env: { success?: boolean; payload?: T; errors?: unknown[]; message?: string; totalErrorsFound?: number };
  try {
    env = JSON.parse(text);
  } catch {
    throw new AppError(`Unexpected answer from ${url} (HTTP ${res.status})`, res.status || 500);
  }
  if (res.ok && env.success !== false) return env.payload as T;
  const message = env.message ?? String(env.errors?.[0] ?? `HTTP ${res.status}`);
  const errors = (env.errors ?? [message]) as string[];
  if (res.status === 400) throw new ValidationError(message, errors, env.totalErrorsFound);
  if (res.status === 401) throw new UnauthorizedError(message);
  if (res.status === 403) throw new ForbiddenError(message);
  if (res.status === 404) throw new NotFoundError(message);
  throw new AppError(message, res.status, errors);
}

/** Fetches a file (downloads) from the server: returns its bytes. */
export async function remoteDownload(opts: GlobalOptions, path: string): Promise<Buffer> {
  const token = opts.token ?? process.env.FUND_AUDIT_TOKEN;
  const url = `${opts.server!.replace(/\/$/, '')}/api/v2.0/${path.replace(/^\//, '')}`;
  const res = await fetchWithRetry(opts, url, { headers: { 'x-access-token': token ?? '' } }, true);
  if (!res.ok) throw new AppError(`Download failed: HTTP ${res.status}`, res.status);
  return Buffer.from(await res.arrayBuffer());
}

/** Waits before the 2nd, 3rd and 4th attempt of a call that failed to connect (ms). */
export const RETRY_DELAYS_MS = [500, 1000, 2000];

/** Errors where the request never reached the server: safe to send again, whatever it does. */
const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** Errors where the connection broke after the request may have reached the server. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** POST calls that only read (listings), so sending them twice changes nothing. */
const READ_ONLY_POSTS = new Set(['funds/listing', 'import/list', 'export/files/list']);

/** Whether sending the call twice has the effect of sending it once (GET, HEAD, PUT, DELETE, read-only POSTs). */
export function isIdempotent(method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'PUT' || m === 'DELETE' || m === 'OPTIONS') return true;
  return READ_ONLY_POSTS.has(path.replace(/^\//, '').replace(/\?.*$/, ''));
}

/** The error code of a failed fetch (undici puts it on `cause`), or 'socket hang up'-like text. */
function connectionCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as { code?: string }).code;
  if (code) return code;
  return /socket hang up|other side closed/i.test(`${cause?.message ?? ''} ${(err as Error).message ?? ''}`) ? 'ECONNRESET' : undefined;
}

/**
 * `fetch` with retries on connection errors: up to 3 retries after 0.5, 1 and 2 s. A refused or
 * unreachable connection is retried for every call (the request was never sent); a reset or hang-up
 * only when `idempotent`, since a non-idempotent POST may have reached the server already. HTTP
 * answers (including 5xx) are never retried.
 * @throws AppError 503 "Cannot reach SERVER: ... (after N attempts)" when every attempt fails
 */
export async function fetchWithRetry(opts: GlobalOptions, url: string, init: RequestInit, idempotent: boolean): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      const code = connectionCode(err);
      const retry = !!code && (NOT_SENT.has(code) || (idempotent && BROKEN.has(code))) && attempt <= RETRY_DELAYS_MS.length;
      if (!retry) {
        const reason = code ?? (err as { cause?: Error }).cause?.message ?? (err as Error).message;
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
        const unsure = code && BROKEN.has(code) && !idempotent ? '; the request may have been carried out, check before sending it again' : '';
        throw new AppError(`Cannot reach ${opts.server}: ${reason}${tries}${unsure}`, 503);
      }
      await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt - 1]));
    }
  }
}
