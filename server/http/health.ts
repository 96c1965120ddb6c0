/**
 * Health answers beyond the plain route: readiness as 200 or 503, and `HEAD` on the health paths
 * (load balancers and `curl -I` ask with HEAD; h3 would answer it 404).
 */
import type { Middleware } from 'h3';
import type { AppContext } from '../context.js';
import { readiness } from '../services/health/health.js';
import { json } from './envelope.js';

/** `GET /api/health/ready`: 200 with the checks when ready, else 503 naming the failing checks. */
export async function readyResponse(ctx: AppContext): Promise<Response> {
  const state = await readiness(ctx);
  const failing = Object.entries(state.checks)
    .filter(([, check]) => !check.ok)
    .map(([name]) => `${name} not ready`);
  return json({ success: state.ready, payload: state, errors: failing }, state.ready ? 200 : 503);
}

const HEALTH_PATHS = new Set(['/api/health', '/api/health/live', '/api/health/ready']);

/** Answers `HEAD` on the health paths: the status the `GET` would have, no body. */
export function headHealth(ctx: AppContext): Middleware {
  return async (event, next) => {
    if (event.req.method !== 'HEAD') return next();
    const path = new URL(event.req.url).pathname;
    if (!HEALTH_PATHS.has(path)) return next();
    const status = path === '/api/health/ready' && !(await readiness(ctx)).ready ? 503 : 200;
    return new Response(null, { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
  };
}
