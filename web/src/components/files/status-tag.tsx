/** A status as a coloured tag (import, export and job statuses, any case). */
import { Tag } from 'primereact/tag';

type Severity = 'success' | 'info' | 'warning' | 'danger' | null;

const SEVERITY: Record<string, Severity> = {
  success: 'success',
  done: 'success',
  finished: 'success',
  error: 'danger',
  failed: 'danger',
  processing: 'info',
  running: 'info',
  pending: 'warning',
  awaiting: 'warning',
};

/** The tag colour of a status. */
export function statusSeverity(status: string): Severity {
  return SEVERITY[status.trim().toLowerCase()] ?? null;
}

/** Capitalised label of a status ('done' -> 'Done'). */
export function statusText(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : '';
}

/** A status tag; `id` lets a tooltip target it. */
export function StatusTag({ status, id, tabIndex }: { status: string; id?: string; tabIndex?: number }) {
  return (
    <Tag id={id} value={statusText(status)} severity={statusSeverity(status)} className="fa-status-tag" data-status={status} tabIndex={tabIndex} rounded />
  );
}
