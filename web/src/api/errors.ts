/**
 * Error type of the API client and the spec's default error formatting (auditor spec section 8).
 * Pure: no DOM, no stores, so it is unit-tested directly.
 */
import type { ApiErrorEntry } from './types';

/** Notification durations in milliseconds (spec section 9). */
export const DURATION = {
  default: 10_000,
  toast: 3_000,
  validation: 60_000,
  success: 2_400,
  saveSuccess: 5_000,
  downloadRequest: 4_000,
} as const;

/** The proxy's upload size limit, as the spec writes it ('200M' -> shown as '200MB'). */
export const UPLOAD_SIZE_LIMIT = '200M';

export const GENERIC_ERROR = 'An error occurred';
const MULTIPART_END = 'Unexpected end of multipart data';

/** A failed API call: HTTP status (0 when the server could not be reached) and the envelope's error fields. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Array<string | ApiErrorEntry>;
  readonly validationMessage?: string;
  readonly totalErrorsFound?: number;
  /** Seconds to wait before trying again, from the answer's Retry-After (a 429 of the rate limits). */
  readonly retryAfterSeconds?: number;

  constructor(init: {
    status: number;
    errors?: Array<string | ApiErrorEntry>;
    validationMessage?: string;
    totalErrorsFound?: number;
    retryAfterSeconds?: number;
  }) {
    super(init.validationMessage ?? firstErrorText(init.errors ?? []) ?? GENERIC_ERROR);
    this.name = 'ApiError';
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.validationMessage = init.validationMessage;
    this.totalErrorsFound = init.totalErrorsFound;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** Retry-After in whole seconds (at least 1), or undefined when absent or not a number of seconds. */
export function retryAfterSeconds(header: string | null | undefined): number | undefined {
  const n = Number(header);
  return header && Number.isFinite(n) && n >= 0 ? Math.max(1, Math.ceil(n)) : undefined;
}

/** The text of one error entry (string or `{message}`). */
export function errorText(entry: string | ApiErrorEntry): string {
  return typeof entry === 'string' ? entry : String(entry.message ?? '');
}

function firstErrorText(errors: Array<string | ApiErrorEntry>): string | undefined {
  const first = errors.map(errorText).find((t) => t.trim() !== '');
  return first;
}

/** What a notification for an error should say and how long it stays. */
export interface ErrorNotice {
  summary?: string;
  detail: string;
  life: number;
}

/** Anything shaped like an API failure (an ApiError or a plain object in tests). */
export interface ErrorLike {
  status?: number;
  errors?: Array<string | ApiErrorEntry>;
  validationMessage?: string;
}

function isSizeLimitError(err: ErrorLike): boolean {
  if (err.status === 413) return true;
  const texts = [err.validationMessage ?? '', ...(err.errors ?? []).map(errorText)];
  return texts.some((t) => t.includes(MULTIPART_END));
}

/** The size-limit message of the spec: 'File upload failed. File size limit has been reached {limit}B'. */
export function sizeLimitMessage(limit: string = UPLOAD_SIZE_LIMIT): string {
  return `File upload failed. File size limit has been reached ${limit}B`;
}

/**
 * Default error handling of the spec: 413 or 'Unexpected end of multipart data' gives the size-limit
 * toast (3 s); a validation message is shown with the errors joined by '; ' (10 s); otherwise the
 * first error; otherwise 'An error occurred'.
 */
export function formatDefaultError(err: ErrorLike, limit: string = UPLOAD_SIZE_LIMIT): ErrorNotice {
  if (isSizeLimitError(err)) return { detail: sizeLimitMessage(limit), life: DURATION.toast };
  const texts = (err.errors ?? []).map(errorText).filter((t) => t.trim() !== '');
  const message = err.validationMessage?.trim();
  if (message) {
    // The server may repeat the message as the only error: show it once.
    const details = texts.filter((t) => t.trim() !== message);
    return details.length > 0 ? { summary: message, detail: details.join('; '), life: DURATION.default } : { detail: message, life: DURATION.default };
  }
  if (texts.length > 0) return { detail: texts[0], life: DURATION.default };
  return { detail: GENERIC_ERROR, life: DURATION.default };
}

/**
 * Upload-specific error text (spec section 8): size limit (413), communication failure (502 or
 * 'Unexpected end of multipart data'), else the first server error, else '{file name} upload failed'.
 */
export function formatUploadError(err: ErrorLike, fileName: string, limit: string = UPLOAD_SIZE_LIMIT): ErrorNotice {
  if (err.status === 413) return { detail: sizeLimitMessage(limit), life: DURATION.toast };
  const texts = [err.validationMessage ?? '', ...(err.errors ?? []).map(errorText)];
  if (err.status === 502 || texts.some((t) => t.includes(MULTIPART_END))) {
    return {
      detail: 'File upload failed due to communication failure (timeout, network disruption, too large file size).',
      life: DURATION.toast,
    };
  }
  const first = (err.errors ?? []).map(errorText).find((t) => t.trim() !== '');
  return { detail: first ?? `${fileName} upload failed`, life: DURATION.toast };
}
