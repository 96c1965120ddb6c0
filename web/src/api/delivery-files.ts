/** Typed calls of the delivery file pages: reference data, imports, exports, Input files lists. */
import { apiUrl, call } from './client';
import type { ExportRow, ImportFileRow, Nrd, PageOf, SortSpec, SweptRow, UnidentifiedRow, UnmatchedRow } from './delivery-types';

/** Reference data lists (administrators, users, ...). */
export function fetchNrd(): Promise<Nrd> {
  return call('GET /api/v2.0/nrd', {});
}

/** Import files in the given order (the server's default, newest first, when `sorting` is empty). */
export function fetchImports(offset: number, limit: number, signal?: AbortSignal, sorting: readonly SortSpec[] = []): Promise<PageOf<ImportFileRow>> {
  return call('POST /api/v2.0/import/list', { body: { offset, sorting: [...sorting], pagination: { limit } } }, { signal, suppressError: true });
}

/** Uploads files for an administrator; failures are handled by the caller (upload error texts). */
export function uploadImportFiles(administrator: string, files: File[]): Promise<ImportFileRow[]> {
  const form = new FormData();
  form.append('administrator', administrator);
  for (const f of files) form.append('upload', f, f.name);
  return call('POST /api/v2.0/import/files', { body: form }, { suppressError: true });
}

/** All download stages of an export (auditor spec 2.3 "Downloads"). */
export const ALL_EXPORT_STAGES = ['visualization', 'calculations', 'standardization', 'identification', 'import', 'fundRequest'] as const;

/** Queues an export of funds' outputs; the caller shows 'Successfully added to Queue.' (4 s). */
export function requestExport(
  fundRequests: number[],
  fundRequestStages: readonly string[],
  options: { excludeDisabledVisualizations?: boolean } = {},
): Promise<ExportRow> {
  return call('POST /api/v2.0/export/files', { body: { fundRequests, fundRequestStages: [...fundRequestStages], ...options } }, { suppressSuccess: true });
}

/** Exports, newest first. */
export function fetchExports(offset: number, limit: number, signal?: AbortSignal): Promise<PageOf<ExportRow>> {
  return call(
    'POST /api/v2.0/export/files/list',
    { body: { offset, limit, sorting: [{ field: 'created_at', order: 'desc' }] } },
    { signal, suppressError: true },
  );
}

/** A short-lived download token. */
export function fetchDownloadToken(): Promise<{ token: string }> {
  return call('GET /api/v2.0/export/token', {});
}

/** The download address of a done export. */
export function exportFileUrl(id: number, token: string): string {
  return `${apiUrl(`/export/file/${id}`)}?token=${encodeURIComponent(token)}`;
}

/** Deletes exports older than 90 days; the failure is handled by the caller. */
export function deleteOldExports(): Promise<{ deleted: number }> {
  return call('POST /api/v2.0/export/files/delete-old', { body: { days: 90 } }, { suppressError: true });
}

/** The two issue lists of Input files and their base paths. */
export const ISSUE_PATHS = { unidentified: '/files/not-identified', unmatched: '/files/not-matched' } as const;
export type IssueKind = keyof typeof ISSUE_PATHS;

/** Resolution states of an issue file (auditor spec section 4). */
export const ISSUE_ACTIONS = ['Unidentified', 'Re-requested', 'Ignored', 'Manually handled', 'Closed'] as const;
export type IssueAction = (typeof ISSUE_ACTIONS)[number];

/** Unidentified files, newest first. */
export function fetchUnidentified(offset: number, limit: number, signal?: AbortSignal): Promise<PageOf<UnidentifiedRow>> {
  return call('POST /api/v2.0/files/not-identified/list', { body: { offset, limit } }, { signal, suppressError: true });
}

/** Identified files without a matching fund, newest first. */
export function fetchUnmatched(offset: number, limit: number, signal?: AbortSignal): Promise<PageOf<UnmatchedRow>> {
  return call('POST /api/v2.0/files/not-matched/list', { body: { offset, limit } }, { signal, suppressError: true });
}

/** MOVEit (swept) files, newest first. */
export function fetchSwept(offset: number, limit: number, signal?: AbortSignal): Promise<PageOf<SweptRow>> {
  return call('POST /api/v2.0/files/sweeper/logs/list', { body: { offset, limit } }, { signal, suppressError: true });
}

/** Assigns issue files to a user (null clears). */
export function assignIssueFiles(kind: IssueKind, ids: number[], userId: number | null): Promise<{ ids: number[]; userId: number | null }> {
  return call(`POST /api/v2.0${ISSUE_PATHS[kind]}/assign`, { body: { ids, userId } });
}

/** Sets the resolution state of issue files. */
export function setIssueAction(kind: IssueKind, ids: number[], action: IssueAction): Promise<{ ids: number[]; action: IssueAction }> {
  return call(`POST /api/v2.0${ISSUE_PATHS[kind]}/action`, { body: { ids, action } });
}

/** Removes issue files from their list. */
export function removeIssueFiles(kind: IssueKind, ids: number[]): Promise<{ removed: number[] }> {
  return call(`POST /api/v2.0${ISSUE_PATHS[kind]}/remove`, { body: { ids } });
}
