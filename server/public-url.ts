/**
 * The base URL of the links Fund Audit prints (sign-in links): `publicUrl` when set; else the
 * address it listens on, except that an address meaning "every interface" (0.0.0.0, ::), which
 * no browser can open, is replaced by this machine's host name.
 */
import { hostname } from 'node:os';

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * @param config `publicUrl`, `host`, `port`, `tlsCert` of the configuration
 * @param listening the address actually listened on with the base path, when known (a port of 0 is resolved there)
 * @returns the base URL (no trailing slash) and, when it had to be guessed, a note telling to set `publicUrl`
 */
export function publicBaseUrl(
  config: { publicUrl?: string; host: string; port: number; tlsCert?: string; basePath?: string },
  listening?: { url: string; port: number },
): { url: string; note?: string } {
  if (config.publicUrl) return { url: config.publicUrl.replace(/\/+$/, '') };
  const protocol = config.tlsCert ? 'https:' : 'http:';
  const port = listening?.port ?? config.port;
  const base = config.basePath ?? '';
  if (!WILDCARD_HOSTS.has(config.host))
    return { url: listening?.url ?? `${protocol}//${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${base}` };
  return {
    url: `${protocol}//${hostname()}:${port}${base}`,
    note: `Listening on every interface: links use this machine's name (${hostname()}). Set publicUrl (--public-url, FUND_AUDIT_PUBLIC_URL) to the address users open.`,
  };
}
