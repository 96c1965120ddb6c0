/**
 * Typed errors services throw; `server/http/envelope.ts` maps them to HTTP statuses in one place
 * and the CLI maps them to exit codes. Messages are written for the user who can fix the problem.
 */

/** A structured error item (spec: Duplicate Fund errors carry id, type and message). */
export type ErrorItem = string | { id?: number; type?: string; message: string; row?: number; column?: string };

/** Base class of errors a user can act on. */
export class AppError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: ErrorItem[] = [message],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: input failed validation; `errors` lists every problem found (maybe capped), `totalErrorsFound` counts all. */
export class ValidationError extends AppError {
  constructor(
    message: string,
    errors: ErrorItem[] = [message],
    readonly totalErrorsFound = errors.length,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message, 400, errors);
  }
}

/** 401: no token, an unknown, expired or revoked one. */
export class UnauthorizedError extends AppError {
  constructor(message = 'Sign-in required') {
    super(message, 401);
  }
}

/** 403: signed in but not allowed. */
export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this') {
    super(message, 403);
  }
}

/** 404 with the spec's message, e.g. 'No such fund request with id: 7'. */
export class NotFoundError extends AppError {
  constructor(message: string) {
    super(message, 404);
  }
}

/** 409: the change conflicts with the current state. */
export class ConflictError extends AppError {
  constructor(message: string, errors?: ErrorItem[]) {
    super(message, 409, errors);
  }
}

/** 409: the data directory is in use by a running `serve` or `worker` (the message names it). */
export class DataDirInUseError extends ConflictError {}

/** 413: an upload over the configured limit. */
export class TooLargeError extends AppError {
  constructor(
    readonly limitBytes: number,
    what = 'File',
  ) {
    super(`File upload failed. File size limit has been reached ${limitBytes}B`, 413, [`${what} is larger than the limit of ${limitBytes} bytes`]);
  }
}
