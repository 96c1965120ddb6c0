/**
 * Typed calls of the auditor area (auditor spec section 7): status report, funds listing and its
 * actions (sent with requestedBy 'Auditor'), fund details, bulk upload, exports and the wiki.
 */
import { apiUrl, call } from './client';
import type { ActionResult, AuditorFundPage, BulkResult, ExportRow, FundDetails, FundError, Nrd, PageOf, StatusReport, WikiData } from './auditor-types';
import { noticeDownload } from './download';

/** Status report of the data platform; a failure is shown by the tab, in place. */
export function fetchStatusReport(): Promise<StatusReport> {
  return call('GET /api/v2.0/user/status-report', {}, { suppressError: true });
}

/** Sorting of the auditor listing: a row field and an order (null: the server default, data due date descending). */
export interface AuditorSort {
  field: string;
  order: 'asc' | 'desc';
}

/**
 * One page of the auditor funds listing; `cursor` (the `next` or `previous` of the page shown)
 * reads the page after or before it, `offset` then being the new page's offset.
 */
export function fetchAuditorFunds(
  offset: number,
  limit: number,
  sort: AuditorSort | null,
  signal?: AbortSignal,
  cursor?: string | null,
): Promise<AuditorFundPage> {
  const query = { ...(sort ? { sort: sort.field, order: sort.order } : {}), ...(cursor ? { cursor } : {}) };
  return call('GET /api/v2.0/user/funds/:offset/:limit', { params: { offset, limit }, query }, { signal });
}

/** The exact number of funds of the auditor listing (its page's count stops at 10,000). */
export async function countAuditorFunds(signal?: AbortSignal): Promise<number> {
  return (await call('GET /api/v2.0/user/funds/count', {}, { signal })).count;
}

/** The auditor's status actions and their paths. */
export const AUDITOR_ACTION_PATHS = {
  open: '/fund/approve',
  close: '/fund/close',
  issue: '/fund/issue',
  remove: '/fund/remove',
} as const;
export type AuditorAction = keyof typeof AUDITOR_ACTION_PATHS;

/** Runs a status action from the auditor area (requestedBy 'Auditor'). */
export function runAuditorAction(action: AuditorAction, ids: number[]): Promise<ActionResult> {
  return call(`POST /api/v2.0${AUDITOR_ACTION_PATHS[action]}`, { body: { ids, requestedBy: 'Auditor' } });
}

/** Fund details; a failure is shown by the screen, in place (so it is not notified twice). */
export function fetchFundDetails(id: number): Promise<FundDetails> {
  return call('GET /api/v2.0/fund/:id', { params: { id } }, { suppressError: true });
}

/** Validates changed fields of a fund; answers the errors (empty when valid). The screen shows them, and a failed call too. */
export async function validateFund(id: number, fund: Record<string, unknown>): Promise<FundError[]> {
  const payload = await call('POST /api/v2.0/fund/validate', { body: { id, fund } }, { suppressError: true, suppressSuccess: true });
  return payload.errors ?? [];
}

/** Saves changed fields of a fund; failures are handled by the screen (spec: default message suppressed). */
export function saveFund(id: number, fund: Record<string, unknown>): Promise<FundDetails> {
  return call('POST /api/v2.0/fund', { body: { id, fund } }, { suppressError: true, suppressSuccess: true });
}

/** Reference data (selects of the details modal). */
export function fetchNrd(): Promise<Nrd> {
  return call('GET /api/v2.0/nrd', {});
}

/** Auditor bulk upload of one CSV (multipart field 'upload'); failures are handled by the caller. */
export function uploadBulk(file: File): Promise<BulkResult> {
  const form = new FormData();
  form.append('upload', file, file.name);
  return call('POST /api/v2.0/fund-request/bulk', { body: form }, { suppressError: true });
}

/** Export stages of the download dialog, in the spec's order, with their labels. */
export const EXPORT_STAGES = [
  { code: 'visualization', label: 'Work papers (visualization)' },
  { code: 'calculations', label: 'Calculations' },
  { code: 'standardization', label: 'Standardization' },
  { code: 'identification', label: 'Identification' },
  { code: 'import', label: 'Raw import' },
  { code: 'fundRequest', label: 'Fund request' },
] as const;

/** Queues an export of funds' outputs (the dialog shows the confirmation itself). */
export function requestExport(fundRequests: number[], fundRequestStages: string[]): Promise<ExportRow> {
  return call(
    'POST /api/v2.0/export/files',
    { body: { fundRequests, fundRequestStages, excludeDisabledVisualizations: false, reviewedVisualizationsOnly: false } },
    { suppressSuccess: true },
  );
}

/** One page of the user's exports, newest first. */
export function fetchExports(offset: number, limit: number, signal?: AbortSignal): Promise<PageOf<ExportRow>> {
  return call('POST /api/v2.0/export/files/list', { body: { offset, limit, sorting: [{ field: 'created_at', order: 'desc' }] } }, { signal });
}

/** Deletes the user's exports older than 90 days; answers how many went (failure handled by the caller). */
export function deleteOldExports(): Promise<{ deleted: number }> {
  return call('POST /api/v2.0/export/files/delete-old', { body: {} }, { suppressError: true });
}

/** Wiki content; a failure is shown by the wiki page, in place (so it is not notified twice). */
export function fetchWiki(): Promise<WikiData> {
  return call('GET /api/v2.0/wiki-data', {}, { suppressError: true });
}

/** A short-lived download token for `?token=` links. */
export function downloadToken(): Promise<{ token: string }> {
  return call('GET /api/v2.0/export/token', {});
}

/** Opens a URL in a new window; when the browser blocks it (or `inPlace`), starts the download in place. */
export function openInNewWindow(url: string, inPlace = false): void {
  const w = inPlace ? null : window.open(url, '_blank');
  if (w) {
    w.opener = null;
    return;
  }
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * Downloads an API file that takes a download token: asks for a token, then opens
 * `<path>?token=...` in a new window (spec section 7), or in place with `inPlace`. An optional
 * notice shows for 4 s while the download starts.
 * @returns whether the download was started
 */
export async function downloadWithToken(path: string, opts: { notice?: string; inPlace?: boolean } = {}): Promise<boolean> {
  let token: string;
  try {
    ({ token } = await downloadToken());
  } catch {
    return false;
  }
  const url = `${apiUrl(path)}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
  noticeDownload(opts.notice);
  openInNewWindow(url, opts.inPlace);
  return true;
}
