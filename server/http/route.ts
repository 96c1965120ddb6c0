/**
 * Route definitions: each API route names its method, path, permission group and zod schemas, and
 * calls one service. `mountRoutes` wraps every handler with token checks, input validation, the
 * envelope, error mapping and request logging; the same definitions feed the OpenAPI document.
 */
import type { H3, H3Event } from 'h3';
import { getRouterParams } from 'h3';
import { z, type ZodType } from 'zod';
import type { AppContext } from '../context.js';
import type { TokenKind } from '../db/schema/index.js';
import { ForbiddenError, TooLargeError, UnauthorizedError, ValidationError } from '../errors.js';
import { denyReason, type RouteGroup } from '../services/auth/permissions.js';
import { verifyToken, type User } from '../services/auth/tokens.js';
import type { EncodedPayload } from '../threads/encoded.js';
import { errorResponse, ok, okSerialized } from './envelope.js';

export interface ApiRequest<B = unknown, Q = unknown> {
  ctx: AppContext;
  event: H3Event;
  /** The signed-in user; null only on public routes. */
  user: User;
  /** The raw token the call was made with. */
  token: string | null;
  body: B;
  query: Q;
  params: Record<string, string>;
}

export interface RouteDef<B = any, Q = any> {
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
  /** Multipart upload: the body is read by the handler; only the size limit is checked here. */
  multipart?: boolean;
  /** The handler returns a Response itself (downloads) instead of a payload. */
  raw?: boolean;
  handler: (req: ApiRequest<B, Q>) => unknown | Promise<unknown>;
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

/** Identity helper that keeps the body/query types of a route. */
export function defineRoute<B = undefined, Q = undefined>(def: RouteDef<B, Q>): RouteDef<B, Q> {
  return def;
}

/** The full URL path of a route (`/api/v2.0/...` or `/api/...`). */
export function fullPath(def: RouteDef): string {
  return (def.base === 'api' ? '/api' : '/api/v2.0') + def.path;
}

function zodErrors(error: z.ZodError, where: string): string[] {
  return error.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`);
}

async function readJson(event: H3Event, limit: number): Promise<unknown> {
  const text = await event.req.text();
  if (Buffer.byteLength(text) > limit) throw new TooLargeError(limit);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON');
  }
}

function authenticate(ctx: AppContext, def: RouteDef, event: H3Event, url: URL): { user: User | null; token: string | null } {
  if (def.group === 'public') return { user: null, token: event.req.headers.get('x-access-token') };
  const token = def.tokenFrom === 'query' ? url.searchParams.get('token') : event.req.headers.get('x-access-token');
  const kinds = def.tokenKinds ?? (def.tokenFrom === 'query' ? ['download'] : ['session', 'api']);
  if (!token)
    throw new UnauthorizedError(
      def.tokenFrom === 'query' ? 'Download token missing: request one with GET /api/v2.0/export/token' : 'Sign-in required: no x-access-token header',
    );
  const { user } = verifyToken(ctx, token, kinds);
  const reason = denyReason(def.group, user.role, ctx.config);
  if (reason) throw new ForbiddenError(reason);
  return { user, token };
}

/** Mounts route definitions on an h3 app. */
export function mountRoutes(app: H3, ctx: AppContext, defs: RouteDef[]): void {
  for (const def of defs) {
    const path = fullPath(def);
    const method = def.method.toLowerCase() as 'get' | 'post' | 'delete';
    app[method](path, async (event) => {
      const started = performance.now();
      const url = new URL(event.req.url);
      let userId: number | undefined;
      let response: Response;
      try {
        const { user, token } = authenticate(ctx, def, event, url);
        userId = user?.id;
        const length = Number(event.req.headers.get('content-length') ?? 0);
        if (length > ctx.config.maxUploadBytes) throw new TooLargeError(ctx.config.maxUploadBytes);
        let body: unknown = undefined;
        if (def.body && !def.multipart) {
          const parsed = def.body.safeParse(await readJson(event, ctx.config.maxUploadBytes));
          if (!parsed.success) throw new ValidationError('The request is not valid', zodErrors(parsed.error, 'body'));
          body = parsed.data;
        }
        let query: unknown = Object.fromEntries(url.searchParams);
        if (def.query) {
          const parsed = def.query.safeParse(query);
          if (!parsed.success) throw new ValidationError('The request is not valid', zodErrors(parsed.error, 'query'));
          query = parsed.data;
        }
        const params = (getRouterParams(event, { decode: true }) ?? {}) as Record<string, string>;
        const result = await def.handler({ ctx, event, user: user as User, token, body, query, params });
        response = def.raw
          ? (result as Response)
          : result instanceof Reply
            ? ok(result.payload, result.message)
            : result instanceof SerializedPayload
              ? okSerialized(result.source, /\bgzip\b/.test(event.req.headers.get('accept-encoding') ?? ''))
              : ok(result);
      } catch (err) {
        response = errorResponse(err, ctx.log, { route: path, method: def.method });
      }
      ctx.log.info(
        { userId, method: def.method, route: path, url: url.pathname, status: response.status, ms: Math.round(performance.now() - started) },
        'request',
      );
      return response;
    });
  }
}
