/**
 * Response payload schemas of the session (spec section 3 "Session"), mirroring `SessionUser`,
 * `SessionConfig` and `Session` of the auth service.
 */
import { z } from 'zod';
import { ROLES } from '../../db/schema/index.js';

/** A user as the session and the users list show it. */
export const sessionUserSchema = z.strictObject({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  originalRole: z.enum(ROLES),
  accepted_privacy_version: z.string().nullable(),
});

/** The feature flags and service versions of the session. */
export const sessionConfigSchema = z.strictObject({
  mode: z.enum(['production', 'development']),
  devTools: z.strictObject({ enabled: z.boolean(), isLocalEnvironment: z.boolean() }),
  mappings: z.boolean(),
  testRunner: z.boolean(),
  demo: z.boolean(),
  aggregation: z.boolean(),
  sdmUpload: z.boolean(),
  customMappings: z.boolean(),
  deleteLuxData: z.boolean(),
  pbiInputs: z.boolean(),
  allowQAValidation: z.boolean(),
  investmentAnalyzerEnabled: z.boolean(),
  newStatusDesign: z.boolean(),
  privacyStatementVersion: z.string(),
  identificationProcess: z.boolean(),
  branchChangeEnabled: z.boolean(),
  branchUpdateEnabled: z.boolean(),
  impersonateEnabled: z.boolean(),
  isDbPushEnabled: z.boolean(),
  dbName: z.string(),
  dependencies: z.array(z.strictObject({ name: z.string(), version: z.string() })),
  maxUploadBytes: z.number().int(),
  supportEmail: z.string().nullable(),
  samplingWizardUrl: z.string().nullable(),
});

/** The whole session: `{user, config}`. */
export const sessionSchema = z.strictObject({ user: sessionUserSchema, config: sessionConfigSchema });
