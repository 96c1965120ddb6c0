/**
 * Route definitions: each API route names its method, path, permission group and zod schemas, and
 * calls one service. `mountRoutes` wraps every handler with token checks, input validation, the
 * envelope and error mapping, and notes the route and user for the request log; the same
 * definitions feed the OpenAPI document.
 */
import type { H3, H3Event } from 'h3';
import { getRouterParams } from 'h3';
import { z, type ZodType } from 'zod';
import type { AppContext } from '../context.js';
import type { TokenKind } from '../db/schema/index.js';
import { ForbiddenError, TooLargeError, UnauthorizedError, ValidationError } from '../errors.js';
import { disposeUploads, parseForm, readForm } from './multipart.js';
import { denyReason, type RouteGroup } from '../services/auth/permissions.js';
import { verifyToken, type User } from '../services/auth/tokens.js';
import type { EncodedPayload } from '../lib/encoded.js';
import { errorResponse, fieldValidationError, ok, okSerialized, type FieldLocation } from './envelope.js';
import { serviceKeyRefusal, tokenConflict } from './service-keys.js';
import { noteRequest } from './request-log.js';

export interface ApiRequest<B = unknown, Q = unknown, F = any> {
  ctx: AppContext;
  event: H3Event;
  /** The signed-in user; null only on public routes. */
  user: User;
  /** The raw token the call was made with. */
  token: string | null;
  body: B;
  query: Q;
  /** The parsed multipart form of a route with a `form` schema (its text fields and staged files). */
  form: F;
  params: Record<string, string>;
}

export interface RouteDef<B = any, Q = any, F = any> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the API base, e.g. `/fund/:id`. */
  path: string;
  /** Mounted under `/api/v2.0` (default) or `/api` (`base: 'api'`). */
  base?: 'v2' | 'api';
  group: RouteGroup;
  summary: string;
  tag: string;
  body?: ZodType<B>;
  query?: ZodType<Q>;
  /** Where the token comes from: header `x-access-token` (default) or `?token=` (downloads). */
  tokenFrom?: 'header' | 'query';
  /** Token kinds accepted (default session and API keys). */
  tokenKinds?: TokenKind[];
  /** Multipart upload: the body is a multipart form, read and checked against `form` before the handler. */
  multipart?: boolean;
  /**
   * The parts of a multipart form: a `z.object` of text fields (zod schemas of strings) and file
   * parts (`formFiles`), checked before the handler runs and passed to it as `form`; documented in
   * the OpenAPI document as a multipart/form-data body.
   */
  form?: ZodType;
  /** The shape of the envelope's `payload` on success (documented in the OpenAPI document). */
  response?: ZodType;
  /** The OpenAPI operationId; derived from the method and path when absent. */
  operationId?: string;
  /** The handler returns a Response itself (downloads) instead of a payload. */
  raw?: boolean;
  /**
   * What a raw route answers, by status, when it is not a file (a redirect, a bare JSON document):
   * e.g. `{ '302': 'Redirect to the identity provider' }`. Documented instead of the file answer.
   */
  rawAnswers?: Record<string, string>;
  handler: (req: ApiRequest<B, Q, F>) => unknown | Promise<unknown>;
}

/**
 * A handler result that also carries the envelope's success `message` (spec: a returned success
 * message is shown by the client); handlers return it through `withMessage`.
 */
export class Reply<T = unknown> {
  constructor(
    readonly payload: T,
    readonly message?: string,
  ) {}
}

/**
 * A payload already serialised as JSON (a cached listing page): sent in the envelope as it is,
 * gzip-compressed for clients that accept it; `source` is kept while its cache entry is fresh.
 */
export class SerializedPayload {
  constructor(readonly source: { readonly json: string; readonly encoded?: EncodedPayload } | { readonly encoded: EncodedPayload }) {}
}

/** Wraps a payload with a success message for the envelope. */
export function withMessage<T>(payload: T, message?: string): Reply<T> {
  return new Reply(payload, message);
}

/** The parsed value of an optional zod schema (`undefined` when the route declares none). */
type Parsed<S> = S extends ZodType ? z.output<S> : undefined;

/**
 * A route definition with the literal method, path and base and the exact schemas it was written
 * with: the API contract (server/http/contract.ts) is read off these types, so clients are typed
 * from the same table the server mounts.
 */
export type TypedRouteDef<
  M extends RouteDef['method'] = RouteDef['method'],
  P extends string = string,
  Base extends 'v2' | 'api' = 'v2' | 'api',
  BS extends ZodType | undefined = ZodType | undefined,
  QS extends ZodType | undefined = ZodType | undefined,
  RS extends ZodType | undefined = ZodType | undefined,
  FS extends ZodType | undefined = ZodType | undefined,
> = Omit<RouteDef<Parsed<BS>, Parsed<QS>, Parsed<FS>>, 'method' | 'path' | 'base' | 'body' | 'query' | 'response' | 'form'> & {
  method: M;
  path: P;
  base?: Base;
  body?: BS;
  query?: QS;
  response?: RS;
  form?: FS;
};

/**
 * Declares a route; keeps its body/query types for the handler and its literal method, path and
 * schemas for the API contract. Write the path as a literal (or a `const` generic of a helper) so
 * clients can call it by `'<METHOD> <full path>'`.
 */
export function defineRoute<
  const M extends RouteDef['method'],
  const P extends string,
  BS extends ZodType | undefined = undefined,
  QS extends ZodType | undefined = undefined,
  RS extends ZodType | undefined = undefined,
  const Base extends 'v2' | 'api' = 'v2',
  FS extends ZodType | undefined = undefined,
>(def: TypedRouteDef<M, P, Base, BS, QS, RS, FS>): TypedRouteDef<M, P, Base, BS, QS, RS, FS> {
  return def;
}

/** The full URL path of a route (`/api/v2.0/...` or `/api/...`). */
export function fullPath(def: RouteDef): string {
  return (def.base === 'api' ? '/api' : '/api/v2.0') + def.path;
}

/** The stable code of a zod issue: its own code, or `invalid_<format>` for a failed string format (`invalid_email`). */
function issueCode(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_format' ? `invalid_${issue.format}` : issue.code;
}

/** The validation error of a failed parse: each issue as a message and as a field error with its code. */
export function zodValidationError(error: z.ZodError, where: FieldLocation): ValidationError {
  return fieldValidationError(
    'The request is not valid',
    error.issues.map((i) => ({ in: where, field: i.path.map(String).join('.'), code: issueCode(i), message: i.message })),
  );
}

/** JSON bodies nested deeper than this are refused (a parser or validator would recurse that deep). */
export const MAX_JSON_DEPTH = 64;

/** Reads the body as text, stopping with 413 as soon as it passes `limit` bytes (chunked bodies included). */
async function readText(event: H3Event, limit: number): Promise<string> {
  const body = event.req.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new TooLargeError(limit, 'The request body');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The deepest nesting of arrays and objects in JSON text (strings skipped), stopping past `max`. */
function jsonDepth(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return depth;
}

async function readJson(event: H3Event, limit: number): Promise<unknown> {
  const text = await readText(event, limit);
  if (!text.trim()) return {};
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new ValidationError(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON');
  }
}

/**
 * The user of a call: its token (the header, or `?token=` on downloads) verified, then the route
 * group's roles and, for a service user, its key's scope checked on that same token.
 * @throws UnauthorizedError for a missing or bad token, or two different tokens in one call;
 *   ForbiddenError when the role or the service key's scope does not reach the route
 */
async function authenticate(ctx: AppContext, def: RouteDef, event: H3Event, url: URL): Promise<{ user: User | null; token: string | null }> {
  const header = event.req.headers.get('x-access-token');
  if (def.group === 'public') return { user: null, token: header };
  const query = url.searchParams.get('token');
  if (tokenConflict(header, query)) throw new UnauthorizedError('The call carries two different tokens (the x-access-token header and ?token=); send only one');
  const token = def.tokenFrom === 'query' ? query : header;
  const kinds = def.tokenKinds ?? (def.tokenFrom === 'query' ? ['download'] : ['session', 'api']);
  if (!token)
    throw new UnauthorizedError(
      def.tokenFrom === 'query' ? 'Download token missing: request one with GET /api/v2.0/export/token' : 'Sign-in required: no x-access-token header',
    );
  const { user } = await verifyToken(ctx, token, kinds);
  const reason = serviceKeyRefusal(`${def.method} ${fullPath(def)}`, def.group, user) ?? denyReason(def.group, user.role, ctx.config);
  if (reason) throw new ForbiddenError(reason);
  return { user, token };
}

/** Mounts route definitions on an h3 app. */
export function mountRoutes(app: H3, ctx: AppContext, defs: RouteDef[]): void {
  for (const def of defs) {
    const path = fullPath(def);
    const method = def.method.toLowerCase() as 'get' | 'post' | 'delete';
    app[method](path, async (event) => {
      const url = new URL(event.req.url);
      let userId: number | undefined;
      let response: Response;
      try {
        const { user, token } = await authenticate(ctx, def, event, url);
        userId = user?.id;
        const length = Number(event.req.headers.get('content-length') ?? 0);
        if (length > ctx.config.maxUploadBytes) throw new TooLargeError(ctx.config.maxUploadBytes);
        let body: unknown = undefined;
        if (def.body && !def.multipart) {
          const parsed = def.body.safeParse(await readJson(event, ctx.config.maxUploadBytes));
          if (!parsed.success) throw zodValidationError(parsed.error, 'body');
          body = parsed.data;
        }
        let query: unknown = Object.fromEntries(url.searchParams);
        if (def.query) {
          const parsed = def.query.safeParse(query);
          if (!parsed.success) throw zodValidationError(parsed.error, 'query');
          query = parsed.data;
        }
        const form = def.form ? parseForm(await readForm(event, ctx), def.form) : undefined;
        const params = (getRouterParams(event, { decode: true }) ?? {}) as Record<string, string>;
        const result = await def.handler({ ctx, event, user: user as User, token, body, query, form, params });
        response = def.raw
          ? (result as Response)
          : result instanceof Reply
            ? ok(result.payload, result.message)
            : result instanceof SerializedPayload
              ? okSerialized(result.source, /\bgzip\b/.test(event.req.headers.get('accept-encoding') ?? ''))
              : ok(result);
      } catch (err) {
        response = errorResponse(err, ctx.log, { route: path, method: def.method });
      } finally {
        if (def.multipart) await disposeUploads(event);
      }
      noteRequest(event, { route: path, userId });
      return response;
    });
  }
}
