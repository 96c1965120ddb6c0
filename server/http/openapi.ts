/**
 * The OpenAPI 3.1 document of the routes that exist, generated from the same route definitions the
 * server mounts (paths, methods, permission group, zod request and response schemas, multipart
 * parts), so docs/openapi.json cannot drift: a test compares the committed file with this output,
 * and the server answers it at GET /api/openapi.json.
 */
import { z } from 'zod';
import { appVersion } from '../paths.js';
import { GROUP_ROLES } from '../services/auth/permissions.js';
import { ERROR_CODES } from './envelope.js';
import { filePartOf, formParts } from './multipart.js';
import { fullPath, type RouteDef } from './route.js';

const ENVELOPE_REF = { $ref: '#/components/schemas/Envelope' };
const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

const errorItem = {
  oneOf: [
    { type: 'string' },
    { type: 'object', properties: { id: { type: 'integer' }, type: { type: 'string' }, message: { type: 'string' } }, additionalProperties: true },
  ],
};

const envelope = {
  type: 'object',
  required: ['success', 'payload', 'errors'],
  properties: {
    success: { type: 'boolean' },
    payload: {},
    errors: { type: 'array', items: { $ref: '#/components/schemas/ErrorItem' } },
    message: { type: 'string' },
    totalErrorsFound: { type: 'integer' },
  },
};

/** The envelope of every error answer: success false, payload null, the errors and a message. */
const errorEnvelope = {
  type: 'object',
  required: ['success', 'payload', 'errors'],
  properties: {
    success: { const: false },
    payload: { type: 'null' },
    errors: { type: 'array', items: { $ref: '#/components/schemas/ErrorItem' } },
    message: { type: 'string' },
    totalErrorsFound: { type: 'integer', description: 'Validation errors only' },
    code: { type: 'string', enum: [...new Set(Object.values(ERROR_CODES)), 'error'], description: 'The kind of error, by HTTP status' },
    fieldErrors: {
      type: 'array',
      items: { $ref: '#/components/schemas/FieldError' },
      description: 'Validation errors of the request: each bad field of the body, query or multipart form with its code',
    },
  },
};

/** One bad field of a request (server/http/envelope.ts `FieldError`). */
const fieldError = {
  type: 'object',
  required: ['in', 'field', 'code', 'message'],
  properties: {
    in: { type: 'string', enum: ['body', 'query', 'form'], description: 'Where the field was sent' },
    field: { type: 'string', description: "Dotted path inside that part (e.g. 'pagination.limit'), '' for the whole part" },
    code: {
      type: 'string',
      description:
        "zod's issue code (invalid_type, too_small, too_big, unrecognized_keys, invalid_value...), invalid_<format> for a failed format (invalid_email), or for multipart parts missing_file, too_many_files, unexpected_field",
    },
    message: { type: 'string' },
  },
};

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ERROR_REF } },
});

/** The error answers any route may give (server/http/envelope.ts, server/http/rate-limit.ts). */
const errorResponses = {
  ValidationError: errorResponse('Validation error: message, errors[], totalErrorsFound and, for the fields the route checks, fieldErrors[] with their codes'),
  Unauthorized: errorResponse('No, unknown, expired or revoked token'),
  Forbidden: errorResponse('The role of the signed-in user is not allowed this call'),
  NotFound: errorResponse('The resource named by the call does not exist'),
  Conflict: errorResponse('The call conflicts with the current state (e.g. a duplicate or a job already running)'),
  TooLarge: errorResponse('The request body is larger than the upload limit'),
  TooManyRequests: errorResponse('Rate limit reached (sign-in attempts, wrong tokens or calls per API key)', {
    'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
  }),
  ServerError: errorResponse("Unexpected error: 'An error occurred' (details are in the server log)"),
};

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): unknown {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  } catch {
    return {};
  }
}

/** `getFundById` from `GET /fund/:id`: the method, then each path segment in camel case. */
export function operationIdOf(def: RouteDef): string {
  if (def.operationId) return def.operationId;
  const words = def.path
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => (seg.startsWith(':') ? ['by', ...seg.slice(1).split(/[^A-Za-z0-9]+/)] : seg.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return def.method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** The multipart/form-data schema of a route's `form`: file parts as `format: binary` (arrays when several), text fields by their zod schema. */
function formSchema(form: z.ZodType): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, part] of formParts(form)) {
    const file = filePartOf(part);
    if (file) {
      const one = { type: 'string', format: 'binary', ...(file.maxBytes !== undefined ? { maxLength: file.maxBytes } : {}) };
      const aliases = file.aliases.length ? ` (also accepted as ${file.aliases.map((a) => `'${a}'`).join(' or ')})` : '';
      const description = file.description + aliases;
      const count = { minItems: file.min, ...(Number.isFinite(file.max) ? { maxItems: file.max } : {}) };
      properties[name] = file.max > 1 ? { type: 'array', items: one, ...count, description } : { ...one, description };
      if (file.min > 0) required.push(name);
    } else {
      properties[name] = schemaOf(part, 'input');
      if (!part.safeParse(undefined).success) required.push(name);
    }
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function requestBody(def: RouteDef): Record<string, unknown> | undefined {
  if (def.form) return { required: true, content: { 'multipart/form-data': { schema: formSchema(def.form) } } };
  if (def.body) return { required: true, content: { 'application/json': { schema: schemaOf(def.body, 'input') } } };
  return undefined;
}

function success(def: RouteDef): Record<string, unknown> {
  if (def.raw) return { description: 'The file or document itself (not in the envelope)' };
  const schema = def.response ? { allOf: [ENVELOPE_REF, { type: 'object', properties: { payload: schemaOf(def.response, 'output') } }] } : ENVELOPE_REF;
  return { description: 'Success: the envelope with the payload', content: { 'application/json': { schema } } };
}

function operation(def: RouteDef): Record<string, unknown> {
  const params: Record<string, unknown>[] = [...fullPath(def).matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (def.tokenFrom === 'query') params.push({ name: 'token', in: 'query', required: true, schema: { type: 'string' } });
  const roles = def.group === 'public' ? 'anyone' : GROUP_ROLES[def.group].join(', ');
  const ref = (name: keyof typeof errorResponses) => ({ $ref: `#/components/responses/${name}` });
  const op: Record<string, unknown> = {
    operationId: operationIdOf(def),
    tags: [def.tag],
    summary: def.summary,
    description: `Permission group: ${def.group} (${roles}).`,
    parameters: params,
    security: def.group === 'public' ? [] : def.tokenFrom === 'query' ? [{ downloadToken: [] }] : [{ accessToken: [] }],
    responses: {
      ...(def.rawAnswers ? Object.fromEntries(Object.entries(def.rawAnswers).map(([code, description]) => [code, { description }])) : { '200': success(def) }),
      '400': ref('ValidationError'),
      ...(def.group === 'public' && def.tokenFrom !== 'query' ? {} : { '401': ref('Unauthorized') }),
      ...(def.group === 'public' ? {} : { '403': ref('Forbidden') }),
      '404': ref('NotFound'),
      '409': ref('Conflict'),
      '413': ref('TooLarge'),
      '429': ref('TooManyRequests'),
      '500': ref('ServerError'),
    },
  };
  const body = requestBody(def);
  if (body) op.requestBody = body;
  return op;
}

/** The product's routes (`createApp` describes them here), for the served document. */
let mounted: RouteDef[] = [];

/**
 * Records the routes an app mounts: `buildOpenApi()` without routes (GET /api/openapi.json)
 * describes them. Called by `createApp`, which sits above the routes that serve the document.
 */
export function describeMountedRoutes(routes: RouteDef[]): void {
  mounted = routes;
}

/**
 * Builds the document for `routes` (default: every mounted route).
 * @throws Error when two routes share an operationId or a method and path
 */
export function buildOpenApi(routes: RouteDef[] = mounted): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const def of routes) {
    const path = fullPath(def).replace(/:(\w+)/g, '{$1}');
    const method = def.method.toLowerCase();
    const op = operation(def);
    if (ids.has(op.operationId as string)) throw new Error(`Two routes have the operationId ${op.operationId}: set operationId on ${def.method} ${path}`);
    if (paths[path]?.[method]) throw new Error(`${def.method} ${path} is defined twice`);
    ids.add(op.operationId as string);
    (paths[path] ??= {})[method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fund Audit API',
      version: appVersion(),
      description:
        'Every answer is the envelope {success, payload, errors}. Sign in with a one-time link (POST /api/sso/redeemToken), then send the session token in the x-access-token header.',
    },
    servers: [{ url: 'http://127.0.0.1:8080' }],
    components: {
      securitySchemes: {
        accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token' },
        downloadToken: { type: 'apiKey', in: 'query', name: 'token' },
      },
      schemas: { Envelope: envelope, ErrorEnvelope: errorEnvelope, ErrorItem: errorItem, FieldError: fieldError },
      responses: errorResponses,
    },
    paths,
  };
}
