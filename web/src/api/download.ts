/**
 * File downloads: a POST answered with a file (read as a blob and saved under a name), and links
 * that carry a short-lived download token in `?token=` (spec section 7).
 */
import { apiUrl } from './client';
import { ApiError, DURATION } from './errors';
import type { Envelope } from './types';
import { apiHooks, notifyApiError } from './hooks';

/** Saves a blob as a file through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The notice every download request shows, for 4 s (spec sections 7 and 9). */
export const DOWNLOAD_NOTICE = 'Your download is starting';

/** Shows the download-request notice (4 s). */
export function noticeDownload(text: string = DOWNLOAD_NOTICE): void {
  apiHooks().notify({ severity: 'info', detail: text, life: DURATION.downloadRequest });
}

/** Starts the download of a URL (the server answers with `content-disposition: attachment`), with the 4-s notice. */
export function openDownload(url: string): void {
  noticeDownload();
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** The file name of a `content-disposition` header, or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  return m?.[1] ? decodeURIComponent(m[1]) : fallback;
}

/**
 * POSTs a JSON body and saves the file the server answers with. A failure shows the server's
 * error, or 'Error downloading data status: {status}' when it sent none; 401/403 redirect.
 * @returns true when the file was saved
 */
export function downloadPost(path: string, body: unknown, fallbackName: string): Promise<boolean> {
  return download(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, fallbackName);
}

/** GETs a file with the session token (a route that takes no download token) and saves it; failures as `downloadPost`. */
export function downloadGet(path: string, fallbackName: string): Promise<boolean> {
  return download(path, { method: 'GET', headers: {} }, fallbackName);
}

async function download(path: string, init: RequestInit & { headers: Record<string, string> }, fallbackName: string): Promise<boolean> {
  const headers = { ...init.headers };
  const token = apiHooks().token();
  if (token) headers['x-access-token'] = token;
  noticeDownload();
  let res: Response;
  try {
    res = await fetch(apiUrl(path), { ...init, headers });
  } catch {
    apiHooks().notify({ severity: 'error', detail: 'Error downloading data status: 0', life: DURATION.default });
    return false;
  }
  if (res.status === 401) {
    apiHooks().onUnauthorized();
    return false;
  }
  if (res.status === 403) {
    apiHooks().onForbidden();
    return false;
  }
  if (!res.ok) {
    let envelope: Partial<Envelope<unknown>> | null = null;
    try {
      envelope = (await res.json()) as Partial<Envelope<unknown>>;
    } catch {
      envelope = null;
    }
    if (envelope && (envelope.message || envelope.errors?.length)) {
      notifyApiError(new ApiError({ status: res.status, errors: envelope.errors ?? [], validationMessage: envelope.message || undefined }));
    } else {
      apiHooks().notify({ severity: 'error', detail: `Error downloading data status: ${res.status}`, life: DURATION.default });
    }
    return false;
  }
  const blob = await res.blob();
  saveBlob(blob, fileNameOf(res.headers.get('content-disposition'), fallbackName));
  return true;
}
