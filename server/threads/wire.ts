/**
 * Errors across a thread boundary: structured cloning keeps only an error's message and stack, so
 * a pool thread sends the typed errors of server/errors.ts as plain data and the requesting thread
 * makes the same error again (same class, message, errors, totalErrorsFound and extra fields), so
 * that a user sees exactly the message the service wrote.
 */
import { AppError, ConflictError, ForbiddenError, NotFoundError, TooLargeError, UnauthorizedError, ValidationError, type ErrorItem } from '../errors.js';

/** An error as it crosses threads. */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  /** Own data fields of a typed error (status, errors, totalErrorsFound, extra, limitBytes). */
  fields?: Record<string, unknown>;
}

const TYPED: Record<string, new (...args: never[]) => AppError> = {
  AppError,
  ValidationError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  TooLargeError,
};

/** The plain-data form of a thrown value. */
export function toWire(err: unknown): WireError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const wire: WireError = { name: err.name, message: err.message, stack: err.stack };
  if (err instanceof AppError && TYPED[err.name]) {
    const { message: _m, stack: _s, name: _n, ...fields } = err as AppError & Record<string, unknown>;
    wire.fields = structuredClone(fields as { status: number; errors: ErrorItem[] });
  }
  return wire;
}

/** The error again, of its own class when it is one of the typed errors. */
export function fromWire(wire: WireError): Error {
  const Typed = wire.fields ? TYPED[wire.name] : undefined;
  const err: Error = Typed ? Object.create(Typed.prototype) : new Error(wire.message);
  // as an Error's own: message and stack not enumerable, the typed error's fields and name enumerable
  Object.defineProperty(err, 'message', { value: wire.message, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(err, 'stack', { value: wire.stack ?? `${wire.name}: ${wire.message}`, writable: true, configurable: true, enumerable: false });
  Object.assign(err, wire.fields ?? {});
  err.name = wire.name;
  return err;
}
