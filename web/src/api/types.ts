/** Wire types of the Fund Audit API: aliases of the API contract (server/http/contract.ts) read off the server's routes. */

import type { WireEnvelope, WireErrorEntry } from '../../../client/api';
import type { ApiResponse } from '../../../server/http/contract';

/** A structured error entry; plain strings are also allowed in `errors`. */
export type ApiErrorEntry = WireErrorEntry;

/** The envelope every API answer is wrapped in. */
export type Envelope<T> = WireEnvelope<T>;

/** Roles known to the product. */
export type Role = SessionUser['role'];

/** The payload of sign-in and role switch (`POST /api/sso/login`). */
export type SessionPayload = ApiResponse<'POST /api/sso/login'>;

/** The signed-in user as returned by sign-in, privacy acceptance and role switch. */
export type SessionUser = SessionPayload['user'];

/** A service name and version listed in the connection indicator. */
export type Dependency = SessionPayload['config']['dependencies'][number];

/** Feature flags and server information carried by the session (its lists readable from a store snapshot). */
export type SessionConfig = Omit<SessionPayload['config'], 'dependencies'> & { dependencies: readonly Dependency[] };

/** Payload of POST /api/sso/redeemToken. */
export type RedeemPayload = ApiResponse<'POST /api/sso/redeemToken'>;

/** Payload of GET /api/health. */
export type HealthPayload = ApiResponse<'GET /api/health'>;

/** The two views a user can switch between. */
export type View = 'auditor' | 'delivery';
