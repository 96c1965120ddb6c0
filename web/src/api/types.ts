/** Wire types of the Fund Audit API (field names as on the wire). */

/** A structured error entry; plain strings are also allowed in `errors`. */
export interface ApiErrorEntry {
  id?: string | number;
  type?: string;
  message: string;
}

/** The envelope every API answer is wrapped in. */
export interface Envelope<T> {
  success: boolean;
  payload: T;
  errors: Array<string | ApiErrorEntry>;
  message?: string;
  totalErrorsFound?: number;
}

/** Roles known to the product. */
export type Role = 'Root' | 'Auditor' | 'Client' | 'Admin' | 'DeliveryTeamMember';

/** The signed-in user as returned by sign-in, privacy acceptance and role switch. */
export interface SessionUser {
  id: string | number;
  username: string;
  email: string;
  fullName: string;
  firstName: string;
  lastName: string;
  role: Role | string;
  originalRole: Role | string;
  accepted_privacy_version: string | number | null;
}

/** A service name and version listed in the connection indicator. */
export interface Dependency {
  name: string;
  version: string;
}

/** Feature flags and server information carried by the session. */
export interface SessionConfig {
  mode: string;
  devTools: { enabled: boolean; isLocalEnvironment: boolean };
  mappings: boolean;
  testRunner: boolean;
  demo: boolean;
  aggregation: boolean;
  sdmUpload: boolean;
  customMappings: boolean;
  deleteLuxData?: boolean;
  pbiInputs: boolean;
  allowQAValidation: boolean;
  investmentAnalyzerEnabled: boolean;
  newStatusDesign: boolean;
  privacyStatementVersion: string | number | null;
  identificationProcess?: unknown;
  branchChangeEnabled?: boolean;
  branchUpdateEnabled?: boolean;
  impersonateEnabled?: boolean;
  isDbPushEnabled?: boolean;
  dbName?: string;
  dependencies: readonly Dependency[];
  /** Address of the external WAM Sampling Wizard (setting `samplingWizardUrl`; not in the spec's config list). */
  samplingWizardUrl?: string | null;
  /** Largest upload in bytes (setting `maxUploadBytes`), shown on Import files. */
  maxUploadBytes?: number;
  /** Support contact e-mail (setting `supportEmail`), null when not configured. */
  supportEmail?: string | null;
}

/** The payload of sign-in and role switch. */
export interface SessionPayload {
  user: SessionUser;
  config: SessionConfig;
}

/** Payload of POST /api/sso/redeemToken. */
export interface RedeemPayload {
  token: string;
  expiresAt: string;
}

/** Payload of GET /api/health. */
export interface HealthPayload {
  version: string;
  schemaVersion: string | number;
}

/** The two views a user can switch between. */
export type View = 'auditor' | 'delivery';
