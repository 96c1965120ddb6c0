/**
 * The one typed client for the Fund Audit API: base path, token header, envelope unwrapping,
 * 401 (forget token, go to /authenticate), 403 (go to /unauthorized), timeout, and the spec's
 * default error notification and success message.
 */
import { ApiError, DURATION } from './errors';
import type { Envelope } from './types';
import { clearSession, session } from '../state/session';
import { navigate } from '../state/navigation';
import { notifyError, notifySuccess } from '../state/notifications';

/** API version prefix (spec section 9). */
export const API_BASE = '/api/v2.0';
/** API timeout in milliseconds (spec section 9). */
export const API_TIMEOUT_MS = 900_000;

export interface RequestOptions {
  /** Do not show the default error notification (the caller handles the failure). */
  suppressError?: boolean;
  /** Do not show the success message the server may return. */
  suppressSuccess?: boolean;
  /** Do not redirect on 401/403 (sign-in calls, background calls). */
  noAuthRedirect?: boolean;
  /** Do not send the session token. */
  anonymous?: boolean;
  signal?: AbortSignal;
}

/** Full URL path for an API path: '/api/...' is kept, anything else goes under /api/v2.0. */
export function apiUrl(path: string): string {
  if (path.startsWith('/api/')) return path;
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'success' in value;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toApiError(status: number, body: unknown): ApiError {
  if (isEnvelope(body)) {
    return new ApiError({
      status,
      errors: Array.isArray(body.errors) ? body.errors : [],
      validationMessage: typeof body.message === 'string' && body.message ? body.message : undefined,
      totalErrorsFound: body.totalErrorsFound,
    });
  }
  return new ApiError({ status, errors: [`Request failed with status ${status}`] });
}

function handleFailure(err: ApiError, opts: RequestOptions): void {
  if (!opts.noAuthRedirect && err.status === 401) {
    clearSession();
    navigate('/authenticate', { replace: true });
    return;
  }
  if (!opts.noAuthRedirect && err.status === 403) {
    navigate('/unauthorized', { replace: true });
    return;
  }
  if (!opts.suppressError) notifyError(err);
}

/**
 * Sends a request and resolves with the envelope's payload; rejects with an ApiError after the
 * default handling (redirects, notification) unless the options turn it off.
 */
export async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (!opts.anonymous && session.token) headers['x-access-token'] = session.token;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);

  let res: Response;
  let data: unknown;
  try {
    res = await fetch(apiUrl(path), { method, headers, body: payload, signal: controller.signal });
    data = await readBody(res);
  } catch (cause) {
    if (opts.signal?.aborted) throw cause;
    const err = new ApiError({ status: 0, errors: ['Could not reach the server. Check your connection and try again.'] });
    handleFailure(err, opts);
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (!res.ok || (isEnvelope(data) && data.success === false)) {
    const err = toApiError(res.ok ? 400 : res.status, data);
    handleFailure(err, opts);
    throw err;
  }
  if (!isEnvelope(data)) {
    const err = new ApiError({ status: res.status, errors: ['The server answered in an unexpected format.'] });
    handleFailure(err, opts);
    throw err;
  }
  if (!opts.suppressSuccess && typeof data.message === 'string' && data.message) {
    notifySuccess(data.message, DURATION.success);
  }
  return data.payload as T;
}

/** Shorthands for the common methods. */
export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body ?? {}, opts),
  upload: <T>(path: string, form: FormData, opts?: RequestOptions) => request<T>('POST', path, form, opts),
};
