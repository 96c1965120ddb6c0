/**
 * The path prefix the UI is served under behind a reverse proxy (docs/deployment.md "Under a base
 * path"): the server writes it into index.html as `<meta name="fund-audit-base-path">`; '' at the
 * root. API calls, the socket address, client routes and download links all go under it.
 */

/** Reads the base path from a document: '' when the meta tag is absent or empty. */
export function readBasePath(doc: Pick<Document, 'querySelector'> | undefined = typeof document === 'undefined' ? undefined : document): string {
  const content = doc?.querySelector('meta[name="fund-audit-base-path"]')?.getAttribute('content') ?? '';
  return content.replace(/\/+$/, '');
}

/** The base path of this page, e.g. '/fund-audit', or '' at the root. */
export const BASE_PATH = readBasePath();

/** An absolute path of this server (e.g. '/api/sso/authorize') under the base path. */
export function withBase(path: string, base: string = BASE_PATH): string {
  return `${base}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A page path without the base path ('/fund-audit/login' -> '/login'); kept as it is when not under it. */
export function withoutBase(pathname: string, base: string = BASE_PATH): string {
  return base && pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : pathname;
}
