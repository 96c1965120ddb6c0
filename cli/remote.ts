/**
 * The HTTP side of commands given `--server URL --token KEY` (or `FUND_AUDIT_SERVER` /
 * `FUND_AUDIT_TOKEN`; a server under a base path is given with it, e.g. `https://host/fund-audit`):
 * whether a command goes to a server, connection errors retried with backoff (`fetchWithRetry`),
 * and failed answers turned into the typed errors services throw (`failureOf`), so a command
 * prints and exits the same way in process and remotely (cli/operation.ts sends the calls).
 */
import type { WireEnvelope } from '../client/api.js';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../server/errors.js';
import type { GlobalOptions } from './global.js';

/** Whether the command should go to a server rather than the local data directory. */
export const isRemote = (opts: GlobalOptions) => !!opts.server;

/** The typed error a failed answer stands for (the same errors services throw). */
export function failureOf(status: number, envelope: WireEnvelope<unknown> | null, url: string): AppError {
  if (!envelope) return new AppError(`Unexpected answer from ${url} (HTTP ${status})`, status || 500);
  const message = envelope.message ?? String(envelope.errors?.[0] ?? `HTTP ${status}`);
  const errors = (envelope.errors ?? [message]) as string[];
  if (status === 400) return new ValidationError(message, errors, envelope.totalErrorsFound, envelope.fieldErrors ? { fieldErrors: envelope.fieldErrors } : {});
  if (status === 401) return new UnauthorizedError(message);
  if (status === 403) return new ForbiddenError(message);
  if (status === 404) return new NotFoundError(message);
  return new AppError(message, status, errors);
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
