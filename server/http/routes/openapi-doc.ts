/** The API's own OpenAPI document, served as JSON at GET /api/openapi.json (public, cacheable). */
import { createHash } from 'node:crypto';
import { buildOpenApi } from '../openapi.js';
import { defineRoute } from '../route.js';

let served: { json: string; etag: string } | undefined;

/** The document as JSON text with its ETag, built once per process (the routes do not change while it runs). */
function document(): { json: string; etag: string } {
  if (!served) {
    const json = JSON.stringify(buildOpenApi());
    served = { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
  }
  return served;
}

export const openApiRoutes = [
  defineRoute({
    method: 'GET',
    path: '/openapi.json',
    base: 'api',
    group: 'public',
    tag: 'system',
    raw: true,
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document (JSON, not in the envelope); cacheable, answers 304 to a matching If-None-Match',
    handler: ({ event }) => {
      const { json, etag } = document();
      const headers = { etag, 'cache-control': 'public, max-age=3600' };
      if (event.req.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
      return new Response(json, { headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });
    },
  }),
];
