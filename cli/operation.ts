/**
 * How a command reaches the services: through the API's route table, in both modes. With `--server`
 * (or `FUND_AUDIT_SERVER`) the operation is sent over HTTP with the given token (cli/remote.ts);
 * otherwise the h3 app is built in this process on the local install (data directory or PostgreSQL
 * database), signed in as its first Admin, and the same request is dispatched to it. Either way the
 * route validates the input, checks the permission group and answers in the envelope its response
 * schema documents, so a command prints the same thing locally and remotely.
 *
 * `operation(g, 'POST /api/v2.0/...', { params, query, body })` runs one call; `openApi(g)` opens a
 * session for commands that make several calls (and, locally, run the jobs a call queued: no
 * server's job threads are there to do it).
 */
import { sendOperation, operationUrl, type CallInput, type WireEnvelope } from '../client/api.js';
import type { AppContext } from '../server/context.js';
import { AppError, NotFoundError, UnauthorizedError, ValidationError } from '../server/errors.js';
import { createApp } from '../server/http/app.js';
import type { ApiQuery, ApiResponse, Operation } from '../server/http/contract.js';
import { fullPath } from '../server/http/route.js';
import { allRoutes } from '../server/http/routes/index.js';
import { Engine } from '../server/jobs/engine.js';
import { issueToken, revokeToken } from '../server/services/auth/tokens.js';
import { seedFxRates } from '../server/services/reference-data/fx-rates.js';
import { ensureAdmin } from '../server/services/users/users.js';
import { openLocal, type GlobalOptions } from './global.js';
import { failureOf, fetchWithRetry, isIdempotent, isRemote } from './remote.js';

/** The job handlers a local session runs queued jobs with (`Engine`'s). */
export type JobHandlers = ConstructorParameters<typeof Engine>[1];

/** A file answer: the response (ok, with a body) and the file name of its content-disposition, if any. */
export interface FileAnswer {
  res: Response;
  fileName: string | undefined;
}

/** What a file call sends: as `CallInput`, without the download token (the session gets one). */
export type FileInput<K extends Operation> = Omit<CallInput<K>, 'query'> & {
  query?: ApiQuery<K> extends infer Q ? (Q extends { token: unknown } ? Omit<Q, 'token'> : Q) : never;
};

/** Calls to the API, in process or over HTTP, until `close`. */
export interface ApiSession {
  /** true when the calls are dispatched in this process (no `--server`). */
  readonly inProcess: boolean;
  /**
   * Calls an operation of the API contract.
   * @returns the envelope's payload, typed by the route's response schema
   * @throws the typed error of a failed answer's status (ValidationError, NotFoundError...)
   */
  call<K extends Operation>(operation: K, input: CallInput<K>): Promise<ApiResponse<K>>;
  /**
   * Calls an operation that answers a file (a download, an export): routes that take a download
   * token (`?token=`) get a fresh one from `GET /api/v2.0/export/token` first.
   * @throws the typed error of a failed answer's status
   */
  file<K extends Operation>(operation: K, input: FileInput<K>): Promise<FileAnswer>;
  /**
   * Runs the jobs the calls queued, to their end, when the session is in process (no server's job
   * threads run them); on a server nothing is done (it runs them itself).
   */
  runQueuedJobs(handlers: JobHandlers): Promise<void>;
  /** Ends the session (in process: revokes its sign-in and closes the install). */
  close(): Promise<void>;
}

/** What a session sends with: the address before `/api`, the transport and the token. */
interface Transport {
  baseUrl: string;
  send: (url: string, init: RequestInit, operation: string) => Promise<Response>;
  token: string;
}

/** Download routes read their token from `?token=` (by operation name). */
const QUERY_TOKEN = new Set(allRoutes.filter((r) => r.tokenFrom === 'query').map((r) => `${r.method} ${fullPath(r)}`));

/** The typed error of a failed file answer (the envelope's message when there is one). */
async function fileError(res: Response, url: string): Promise<Error> {
  let envelope: WireEnvelope<unknown> | null = null;
  try {
    envelope = (await res.json()) as WireEnvelope<unknown>;
  } catch {
    // not an envelope: the status says it
  }
  if (envelope && typeof envelope === 'object' && 'success' in envelope) return failureOf(res.status, envelope, url);
  const message = `Download failed: HTTP ${res.status}`;
  if (res.status === 400) return new ValidationError(message);
  if (res.status === 401) return new UnauthorizedError(message);
  if (res.status === 404) return new NotFoundError(message);
  return new AppError(message, res.status);
}

function session(t: Transport, inProcess: boolean, extra: Pick<ApiSession, 'runQueuedJobs' | 'close'>): ApiSession {
  const options = { baseUrl: t.baseUrl, send: t.send, headers: () => ({ 'x-access-token': t.token }) };
  const call = async <K extends Operation>(operation: K, input: CallInput<K>): Promise<ApiResponse<K>> => {
    const { status, ok, envelope } = await sendOperation(options, operation, input);
    if (ok) return envelope?.payload as ApiResponse<K>;
    throw failureOf(status, envelope, `${t.baseUrl}${operation.slice(operation.indexOf(' ') + 1)}`);
  };
  const file = async <K extends Operation>(operation: K, input: FileInput<K>): Promise<FileAnswer> => {
    const { params, query, body } = input as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
    const byQuery = QUERY_TOKEN.has(operation);
    const token = byQuery ? (await call('GET /api/v2.0/export/token', {})).token : null;
    const { method, path } = operationUrl(operation, params, { ...query, ...(token ? { token } : {}) });
    const headers: Record<string, string> = byQuery ? {} : { 'x-access-token': t.token };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (method === 'POST') {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body ?? {});
    }
    const url = `${t.baseUrl}${path}`;
    const res = await t.send(url, { method, headers, body: payload }, operation);
    if (!res.ok || !res.body) throw await fileError(res, `${t.baseUrl}${path.replace(/([?&]token=)[^&]*/, '$1...')}`);
    return { res, fileName: /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] };
  };
  return { inProcess, call, file, ...extra };
}

/** The address in-process requests are made to (the app is not served: nothing listens there). */
const IN_PROCESS = 'http://fund-audit.local';

/**
 * Opens the local install (cli/global.ts `openLocal`: migrated and bootstrapped like `serve`, the
 * shipped FX history seeded as a server does on start) and builds the API's h3 app on it, signed in
 * with a session of the install's first Admin.
 */
async function inProcessSession(g: GlobalOptions): Promise<ApiSession> {
  const ctx: AppContext = await openLocal(g);
  try {
    seedFxRates(ctx);
    const { user } = await ensureAdmin(ctx, ctx.config.adminEmail);
    const { token } = await issueToken(ctx, user.id, 'session', 24 * 3_600_000, 'fund-audit command');
    const app = createApp(ctx);
    return session({ baseUrl: IN_PROCESS, token, send: (url, init) => Promise.resolve(app.fetch(new Request(url, init))) }, true, {
      runQueuedJobs: async (handlers) => {
        await new Engine(ctx, handlers).drain();
      },
      close: async () => {
        try {
          await revokeToken(ctx, token);
        } finally {
          ctx.close();
        }
      },
    });
  } catch (err) {
    ctx.close();
    throw err;
  }
}

/** Sends to the server of `--server`, with `--token` (or FUND_AUDIT_TOKEN); connection errors retried (cli/remote.ts). */
function httpSession(g: GlobalOptions): ApiSession {
  const token = g.token ?? process.env.FUND_AUDIT_TOKEN;
  if (!token) throw new UnauthorizedError('--server needs --token KEY (or FUND_AUDIT_TOKEN): create one with the key generator');
  return session(
    {
      baseUrl: g.server!.replace(/\/+$/, ''),
      token,
      send: (url, init, op) => fetchWithRetry(g, url, init, isIdempotent(init.method ?? 'GET', op.slice(op.indexOf(' ') + 1).replace(/^\/api\/v2\.0\//, ''))),
    },
    false,
    { runQueuedJobs: async () => {}, close: async () => {} },
  );
}

/**
 * Opens a session of the global options: HTTP to the server with `--server`, else the API in
 * this process on the local install.
 * @throws UnauthorizedError for `--server` without a token; MissingDataDirError when the data directory does not exist
 */
export async function openApi(g: GlobalOptions): Promise<ApiSession> {
  return isRemote(g) ? httpSession(g) : inProcessSession(g);
}

/** Runs `fn` with a session of the global options, closing it afterwards. */
export async function withApi<T>(g: GlobalOptions, fn: (api: ApiSession) => Promise<T>): Promise<T> {
  const api = await openApi(g);
  try {
    return await fn(api);
  } finally {
    await api.close();
  }
}

/**
 * Calls one operation, in process or on the server (see `openApi`).
 * @param operation e.g. `'POST /api/v2.0/funds/listing'`
 * @returns the envelope's payload, typed by the route's response schema
 * @throws the typed error of the answer's status; AppError 503 when a server cannot be reached
 */
export function operation<K extends Operation>(g: GlobalOptions, op: K, input: CallInput<K>): Promise<ApiResponse<K>> {
  return withApi(g, (api) => api.call(op, input));
}
