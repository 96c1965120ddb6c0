/** Notification store: pages and the API client push notices, the host shows them as toasts. */
import { proxy } from 'valtio';
import { DURATION, formatDefaultError, type ErrorLike } from '../api/errors';

export type Severity = 'success' | 'info' | 'warn' | 'error';

/** One notice waiting to be shown. */
export interface Notice {
  id: number;
  severity: Severity;
  summary?: string;
  detail: string;
  life: number;
  /** link-style buttons shown under the text (e.g. 'Open fund 12' of a 'Duplicate Fund' error) */
  links?: Array<{ label: string; onClick: () => void }>;
}

/** Pending notices; the host drains this queue. */
export const notifications = proxy<{ queue: Notice[] }>({ queue: [] });

let nextId = 1;

/** Queues a notice; `life` defaults to the spec's 10 s. */
export function notify(notice: Omit<Notice, 'id' | 'life'> & { life?: number }): void {
  notifications.queue.push({ life: DURATION.default, ...notice, id: nextId++ });
}

/** Shows a success message for 2.4 s (or the given life). */
export function notifySuccess(detail: string, life: number = DURATION.success): void {
  notify({ severity: 'success', detail, life });
}

/** Shows an API failure using the spec's default error handling. */
export function notifyError(err: ErrorLike): void {
  const n = formatDefaultError(err);
  notify({ severity: 'error', summary: n.summary, detail: n.detail, life: n.life });
}

/** Removes and returns every queued notice. */
export function drainNotices(): Notice[] {
  return notifications.queue.splice(0, notifications.queue.length);
}
