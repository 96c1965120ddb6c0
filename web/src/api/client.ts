/**
 * The browser's side of the one typed API client (client/api.ts): `call('POST /api/v2.0/funds/listing',
 * {body})` typed by the contract read off the server's route table, under the page's base path, with
 * the token header, envelope unwrapping, 401 (forget token, go to /authenticate), 403 (go to
 * /unauthorized), timeout, and the spec's default error notification and success message.
 */
import { sendOperation, type CallInput, type WireEnvelope } from '../../../client/api';
import type { ApiResponse, Operation } from '../../../server/http/contract';
import { ApiError, DURATION, retryAfterSeconds } from './errors';
import { BASE_PATH, withBase } from './base-path';
import { apiHooks, notifyApiError } from './hooks';

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

/** Full URL path for an API path under the base path: '/api/...' is kept, anything else goes under /api/v2.0. */
export function apiUrl(path: string): string {
  if (path.startsWith('/api/')) return withBase(path);
  return withBase(`${API_BASE}${path.startsWith('/') ? path : `/${path}`}`);
}

function toApiError(status: number, body: WireEnvelope<unknown> | null, retryAfter?: number): ApiError {
  if (body) {
    return new ApiError({
      status,
      errors: Array.isArray(body.errors) ? body.errors : [],
      validationMessage: typeof body.message === 'string' && body.message ? body.message : undefined,
      totalErrorsFound: body.totalErrorsFound,
      retryAfterSeconds: retryAfter,
    });
  }
  return new ApiError({ status, errors: [`Request failed with status ${status}`], retryAfterSeconds: retryAfter });
}

function handleFailure(err: ApiError, opts: RequestOptions): void {
  if (!opts.noAuthRedirect && err.status === 401) {
    apiHooks().onUnauthorized();
    return;
  }
  if (!opts.noAuthRedirect && err.status === 403) {
    apiHooks().onForbidden();
    return;
  }
  if (!opts.suppressError) notifyApiError(err);
}

/**
 * Calls one operation of the API contract and resolves with the envelope's payload (typed by the
 * route's response schema); rejects with an ApiError after the default handling (redirects,
 * notification) unless the options turn it off.
 * @param operation e.g. `'POST /api/v2.0/funds/listing'`
 * @param input path parameters, query and body as the route declares them
 */
export async function call<K extends Operation>(operation: K, input: CallInput<K>, opts: RequestOptions = {}): Promise<ApiResponse<K>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);
  let answer: Awaited<ReturnType<typeof sendOperation<K>>>;
  let retryAfter: number | undefined;
  try {
    answer = await sendOperation(
      {
        baseUrl: BASE_PATH,
        send: async (url, init) => {
          const res = await fetch(url, init);
          retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
          return res;
        },
        headers: (): Record<string, string> => {
          const token = opts.anonymous ? null : apiHooks().token();
          return token ? { 'x-access-token': token } : {};
        },
      },
      operation,
      input,
      { signal: controller.signal },
    );
  } catch (cause) {
    if (opts.signal?.aborted) throw cause;
    const err = new ApiError({ status: 0, errors: ['Could not reach the server. Check your connection and try again.'] });
    handleFailure(err, opts);
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  const { status, envelope } = answer;
  if (!answer.ok) {
    const ok = status >= 200 && status < 300;
    const err =
      ok && !envelope
        ? new ApiError({ status, errors: ['The server answered in an unexpected format.'] })
        : toApiError(ok ? 400 : status, envelope, retryAfter);
    handleFailure(err, opts);
    throw err;
  }
  const message = envelope?.message;
  if (!opts.suppressSuccess && typeof message === 'string' && message) apiHooks().notify({ severity: 'success', detail: message, life: DURATION.success });
  return envelope?.payload as ApiResponse<K>;
}
