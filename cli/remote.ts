/**
 * Calls a running Fund Audit server for commands given `--server URL --token KEY`: the same
 * envelope as the browser, with failures turned into the same typed errors services throw, so a
 * command prints and exits the same way locally and remotely.
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
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: payload });
  } catch (err) {
    throw new AppError(`Cannot reach ${opts.server}: ${(err as Error).message}`, 503);
  }
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
  const res = await fetch(`${opts.server!.replace(/\/$/, '')}/api/v2.0/${path.replace(/^\//, '')}`, { headers: { 'x-access-token': token ?? '' } });
  if (!res.ok) throw new AppError(`Download failed: HTTP ${res.status}`, res.status);
  return Buffer.from(await res.arrayBuffer());
}
