/**
 * Fund statuses, their labels and the data-requested statuses (both spec documents, section 4).
 * Framework-free: the server, the browser and the CLI all read these.
 */

/** Fund upload statuses as stored (spec section 4), compared case-insensitively. */
export const FUND_STATUSES = ['Pending', 'Approved', 'Declined', 'Completed - Fund Closed', 'Deleted', 'Issued', 'Paused'] as const;
export type FundStatus = (typeof FUND_STATUSES)[number];

/** Delivery-view labels that differ from the stored status (Approved is 'Open', Completed - Fund Closed is 'Closed'). */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  Approved: 'Open',
  'Completed - Fund Closed': 'Closed',
};

/**
 * A stored status in its canonical spelling: compared case-insensitively, null or empty is Pending
 * (spec section 4). An unknown value is returned as given.
 */
export function normalizeStatus(status: string | null | undefined): string {
  if (!status || !status.trim()) return 'Pending';
  const s = status.trim().toLowerCase();
  return FUND_STATUSES.find((k) => k.toLowerCase() === s) ?? status;
}

/** The delivery-view label of a status: 'Open' for Approved, 'Closed' for Completed - Fund Closed, else the canonical status. */
export function statusLabel(status: string | null | undefined): string {
  const s = normalizeStatus(status);
  return STATUS_LABELS[s] ?? s;
}

/** Accepts a status or its label ('Open', 'Closed'), any case; returns the stored status or null when unknown. */
export function parseStatus(value: string | null | undefined): FundStatus | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  const byLabel = Object.entries(STATUS_LABELS).find(([, label]) => label.toLowerCase() === v)?.[0];
  const s = normalizeStatus(byLabel ?? value);
  return (FUND_STATUSES as readonly string[]).includes(s) ? (s as FundStatus) : null;
}

/** Data-requested statuses as stored (spec section 4). */
export const DATA_REQUEST_STATUSES = ['Requested', 'ReRequested', 'Chased1', 'Chased2', 'Chased3', 'NotRequested'] as const;
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number];

/** Display labels of the data-requested statuses. */
export const DATA_REQUEST_LABELS: Readonly<Record<DataRequestStatus, string>> = {
  Requested: 'Requested',
  ReRequested: 'Re-requested',
  Chased1: 'Chased 1',
  Chased2: 'Chased 2',
  Chased3: 'Chased 3',
  NotRequested: 'Not requested',
};

/** The label of a data-requested status; null is 'Not requested' (the default), an unknown value is shown as stored. */
export function dataRequestStatusLabel(status: string | null | undefined): string {
  return DATA_REQUEST_LABELS[(status ?? 'NotRequested') as DataRequestStatus] ?? String(status);
}
