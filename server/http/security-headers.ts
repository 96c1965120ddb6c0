/**
 * Security headers on every answer (API, UI, errors): a Content-Security-Policy that allows
 * scripts only from this server (no inline scripts, no eval) and no framing, `nosniff`, no
 * referrer, and HSTS when served over TLS (the server's own TLS, an https `publicUrl`, or
 * `X-Forwarded-Proto: https` from a trusted proxy). Styles allow inline `<style>` because the UI's component library
 * injects its component styles at run time (docs/decisions/0008-openid-connect-sign-in.md).
 */
import type { H3Event, Middleware } from 'h3';
import type { BlockList } from 'node:net';
import type { AppConfig } from '../config.js';
import { isTrustedProxy, parseTrustedProxies, plainAddress } from '../lib/proxies.js';

/** The Content-Security-Policy of every answer. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const FIXED: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Whether the request reached the server over TLS. */
function overTls(event: H3Event, config: AppConfig, proxies: BlockList): boolean {
  if (new URL(event.req.url).protocol === 'https:' || config.publicUrl?.startsWith('https:')) return true;
  const remote = (event.req as { ip?: string }).ip;
  if (!remote || !isTrustedProxy(proxies, plainAddress(remote))) return false;
  return event.req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

/** Adds the security headers to a response (a copy when its headers cannot be changed). */
export function withSecurityHeaders(res: Response, tls: boolean): Response {
  const extra: Record<string, string> = { ...FIXED };
  if (tls) extra['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  try {
    for (const [k, v] of Object.entries(extra)) res.headers.set(k, v);
    return res;
  } catch {
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/** The middleware that puts the security headers on every answer of the app. */
export function securityHeaders(config: AppConfig): Middleware {
  const proxies = parseTrustedProxies(config.trustedProxies);
  return async (event, next) => {
    const res = await next();
    return res instanceof Response ? withSecurityHeaders(res, overTls(event, config, proxies)) : res;
  };
}
