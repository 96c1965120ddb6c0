/**
 * The OpenAPI 3.1 document of the routes that exist, generated from the same route definitions the
 * server mounts (paths, methods, permission group, zod request schemas), so docs/openapi.json
 * cannot drift: a test compares the committed file with this output.
 */
import { z } from 'zod';
import { appVersion } from '../paths.js';
import { GROUP_ROLES } from '../services/auth/permissions.js';
import { fullPath, type RouteDef } from './route.js';
import { allRoutes } from './routes/index.js';

const envelope = {
  type: 'object',
  required: ['success', 'payload', 'errors'],
  properties: {
    success: { type: 'boolean' },
    payload: {},
    errors: {
      type: 'array',
      items: {
        oneOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' }, type: { type: 'string' }, message: { type: 'string' } } }],
      },
    },
    message: { type: 'string' },
    totalErrorsFound: { type: 'integer' },
  },
};

function schemaOf(schema: z.ZodType): unknown {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  } catch {
    return {};
  }
}

function operation(def: RouteDef): Record<string, unknown> {
  const params = [...fullPath(def).matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  if (def.tokenFrom === 'query') params.push({ name: 'token', in: 'query', required: true, schema: { type: 'string' } });
  const roles = def.group === 'public' ? 'anyone' : GROUP_ROLES[def.group].join(', ');
  const op: Record<string, unknown> = {
    tags: [def.tag],
    summary: def.summary,
    description: `Permission group: ${def.group} (${roles}).`,
    parameters: params,
    security: def.group === 'public' ? [] : def.tokenFrom === 'query' ? [{ downloadToken: [] }] : [{ accessToken: [] }],
    responses: {
      '200': def.raw
        ? { description: 'A file' }
        : { description: 'Success', content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } },
      '400': { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } },
      ...(def.group === 'public' ? {} : { '401': { description: 'No, unknown, expired or revoked token' }, '403': { description: 'Role not allowed' } }),
      '500': { description: "'An error occurred'" },
    },
  };
  if (def.body) op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(def.body) } } };
  if (def.multipart)
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', properties: { upload: { type: 'string', format: 'binary' } } } } },
    };
  return op;
}

/** Builds the document. */
export function buildOpenApi(routes: RouteDef[] = allRoutes): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const path = fullPath(def).replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[def.method.toLowerCase()] = operation(def);
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
      schemas: { Envelope: envelope },
    },
    paths,
  };
}
