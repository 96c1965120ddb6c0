/**
 * The API contract, as types only, read off the route table the server mounts
 * (server/http/routes/index.ts `routeTable`): one operation per route, named
 * `'<METHOD> <full path>'` (e.g. `'POST /api/v2.0/funds/listing'`, `'GET /api/v2.0/fund/:id'`), with
 * its path parameters, its JSON body and query as a client sends them (the zod schemas' input), and
 * the envelope's `payload` on success (the response schema's output; `unknown` for a route that
 * declares none). The typed client (client/api.ts) and every caller import it as types only:
 * nothing here runs, so the browser bundle pulls in no server code.
 */
import type { z, ZodType } from 'zod';
import type { routeTable } from './routes/index.js';

/** Any route of the table, with its literal method, path, base and schemas. */
type AnyRoute = (typeof routeTable)[number];

type BaseOf<R> = R extends { base?: infer B } ? (NonNullable<B> extends 'api' ? '/api' : '/api/v2.0') : '/api/v2.0';

/** The operation name of a route: `'<METHOD> <full path>'`; never for a path that is not a literal. */
export type OperationOf<R> = R extends { method: infer M extends string; path: infer P extends string }
  ? string extends P
    ? never
    : `${M} ${BaseOf<R>}${P}`
  : never;

/** The `:name` parameters of a path, e.g. `'id' | 'fileId'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type Input<S> = [NonNullable<S>] extends [never] ? undefined : NonNullable<S> extends ZodType ? z.input<NonNullable<S>> : undefined;
type Output<S> = [NonNullable<S>] extends [never] ? unknown : NonNullable<S> extends ZodType ? z.output<NonNullable<S>> : unknown;
type Params<P extends string> = [PathParamNames<P>] extends [never] ? undefined : Record<PathParamNames<P>, string | number>;

/** What a client sends and gets for one route. */
export interface OperationTypes<Method extends string, Par, Body, Query, Response> {
  method: Method;
  /** Values of the path's `:name` parameters (undefined when it has none). */
  params: Par;
  /** The JSON body (undefined: none, or a multipart upload sent as FormData). */
  body: Body;
  /** The query parameters (undefined when the route reads none). */
  query: Query;
  /** The envelope's `payload` on success. */
  response: Response;
}

/** Every operation of the API by name. */
export type ApiContract = {
  [R in AnyRoute as OperationOf<R>]: OperationTypes<R['method'], Params<R['path']>, Input<R['body']>, Input<R['query']>, Output<R['response']>>;
};

/** The name of an operation, e.g. `'POST /api/v2.0/funds/listing'`. */
export type Operation = keyof ApiContract;
/** The payload an operation answers with on success. */
export type ApiResponse<K extends Operation> = ApiContract[K]['response'];
/** The JSON body an operation takes. */
export type ApiBody<K extends Operation> = ApiContract[K]['body'];
/** The query an operation takes. */
export type ApiQuery<K extends Operation> = ApiContract[K]['query'];
