/** Downloads from a server that answer a file rather than an envelope (zips, csv files). */
import type { WireEnvelope } from '../../client/api.js';
import { AppError, NotFoundError, UnauthorizedError, ValidationError } from '../../server/errors.js';
import type { GlobalOptions } from '../global.js';
import { fetchWithRetry, remoteOperation } from '../remote.js';

/** Turns a failed download answer into the typed error of its status (the envelope's message when there is one). */
async function downloadError(res: Response): Promise<Error> {
  let message = `Download failed: HTTP ${res.status}`;
  try {
    const env = (await res.json()) as Partial<WireEnvelope<unknown>>;
    message = env.message ?? String(env.errors?.[0] ?? message);
  } catch {
    // not an envelope: keep the status line
  }
  if (res.status === 400) return new ValidationError(message);
  if (res.status === 401) return new UnauthorizedError(message);
  if (res.status === 404) return new NotFoundError(message);
  return new AppError(message, res.status);
}

/**
 * GETs a download (`path` below `/api/v2.0`, with its query) with a fresh download token (`GET
 * /export/token`), retried on connection errors.
 * @returns the answer (ok, with a body) and the file name of its content-disposition, if any
 * @throws the typed error of a failed answer's status
 */
export async function download(g: GlobalOptions, path: string): Promise<{ res: Response; fileName: string | undefined }> {
  const { token } = await remoteOperation(g, 'GET /api/v2.0/export/token', {});
  const url = `${g.server!.replace(/\/$/, '')}/api/v2.0/${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
  const res = await fetchWithRetry(g, url, {}, true);
  if (!res.ok || !res.body) throw await downloadError(res);
  return { res, fileName: /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] };
}

/**
 * POSTs a JSON body to a route that answers a file (`path` below `/api/v2.0`), the token in the
 * header, retried on connection errors (the call reads only).
 * @returns the file's bytes and the file name of its content-disposition, if any
 * @throws the typed error of a failed answer's status
 */
export async function downloadPost(g: GlobalOptions, path: string, body: unknown): Promise<{ bytes: Buffer; fileName: string | undefined }> {
  const token = g.token ?? process.env.FUND_AUDIT_TOKEN;
  if (!token) throw new UnauthorizedError('--server needs --token KEY (or FUND_AUDIT_TOKEN): create one with the key generator');
  const url = `${g.server!.replace(/\/$/, '')}/api/v2.0/${path}`;
  const res = await fetchWithRetry(
    g,
    url,
    { method: 'POST', headers: { 'x-access-token': token, 'content-type': 'application/json' }, body: JSON.stringify(body) },
    true,
  );
  if (!res.ok) throw await downloadError(res);
  return {
    bytes: Buffer.from(await res.arrayBuffer()),
    fileName: /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1],
  };
}
