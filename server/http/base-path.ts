/**
 * Serving under a base path (`basePath`, e.g. `/fund-audit`) behind a reverse proxy that keeps the
 * prefix: requests under it reach the app with the prefix taken off (so routes, health, metrics,
 * downloads and the UI answer as at the root); the prefix itself and `/` redirect to `<prefix>/`;
 * anything else is a plain 404 naming the prefix. The live socket checks `<prefix>/ws` itself
 * (server/http/ws.ts). docs/deployment.md "Under a base path".
 */

type Fetch = (request: Request) => Response | Promise<Response>;

/**
 * The path inside the app of a request path, or null when it is not under the base path.
 * @param basePath '' or a prefix without a trailing slash, e.g. `/fund-audit`
 * @param pathname the request's path, e.g. `/fund-audit/api/health`
 * @returns e.g. `/api/health`; `/` for `<prefix>/`; null for `/other` or `/fund-auditx`
 */
export function pathInApp(basePath: string, pathname: string): string | null {
  if (!basePath) return pathname;
  if (!pathname.startsWith(`${basePath}/`)) return null;
  return pathname.slice(basePath.length);
}

/** A srvx (Node) request: its URL is computed lazily and may be replaced before anyone reads it. */
interface LazyUrlRequest extends Request {
  _url: URL;
}

/** The request with its URL moved to `url` (the srvx request in place, keeping its Node stream; else a copy). */
function moved(request: Request, url: URL): Request {
  if ('_url' in request) {
    (request as LazyUrlRequest)._url = url;
    return request;
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? request.body : undefined,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Wraps the app's fetch handler so it answers under a base path.
 * @param basePath '' (the handler is returned as it is) or a prefix without a trailing slash
 */
export function underBasePath(basePath: string, fetch: Fetch): Fetch {
  if (!basePath) return fetch;
  return (request) => {
    const url = new URL(request.url);
    const inner = pathInApp(basePath, url.pathname);
    if (inner === null) {
      if (url.pathname === basePath || url.pathname === '/')
        return new Response(null, { status: 308, headers: { location: `${basePath}/${url.search}`, 'cache-control': 'no-store' } });
      return new Response(`Not found: Fund Audit is served under ${basePath}/`, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    url.pathname = inner;
    return fetch(moved(request, url));
  };
}
