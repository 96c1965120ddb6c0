/**
 * Response payload schemas of the developer tools' reads (delivery spec "Developer tools"),
 * mirroring `effectiveConfig`, `configSourceList`, `iomConfig`, `currentBranch`, `listAuditLog`,
 * `listFxRates`, the service states and the log files.
 */
import { z } from 'zod';

const source = z.enum(['default', 'config file', 'environment', 'command line']);

/** Every setting with its value (secrets as `(set)`) and environment variable. */
export const effectiveConfigSchema = z.array(z.strictObject({ key: z.string(), value: z.unknown(), env: z.string() }));

/** The configuration file read and the source of every setting. */
export const configSourcesSchema = z.strictObject({
  file: z.string(),
  precedence: z.array(source),
  settings: z.array(z.strictObject({ key: z.string(), source, env: z.string() })),
});

/** The pipeline's input/output model. */
export const iomConfigSchema = z.strictObject({
  stages: z.array(z.string()),
  inputs: z.array(
    z.strictObject({
      type: z.string(),
      columns: z.array(z.strictObject({ name: z.string(), kind: z.enum(['text', 'number', 'date']), required: z.boolean() })),
    }),
  ),
  mappingTypes: z.array(z.string()),
  outputs: z.array(z.string()),
  limits: z.strictObject({ identificationLimitBytes: z.number().int(), maxUploadBytes: z.number().int() }),
});

/** A configurations or testing branch. */
export const branchInfoSchema = z.strictObject({
  kind: z.enum(['configurations', 'testing']),
  branch: z.string(),
  behind: z.number().int(),
  latestCommit: z.strictObject({ id: z.string(), message: z.string(), files: z.number().int() }),
  source: z.string(),
  updateEnabled: z.boolean(),
  changeEnabled: z.boolean(),
});

/** Security audit log entries, newest first (`listAuditLog`). */
export const auditLogSchema = z.array(
  z.strictObject({
    id: z.number().int(),
    at: z.string(),
    actorId: z.number().int().nullable(),
    actorEmail: z.string().nullable(),
    action: z.string(),
    subject: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    prevHash: z.string(),
    hash: z.string(),
  }),
);

/** The independent FX rate files and what they cover (`listFxRates`). */
export const fxRateFilesSchema = z.array(
  z.strictObject({
    file: z.string(),
    format: z.enum(['ECB eurofxref-hist', 'cross rates']),
    rates: z.number().int(),
    firstDate: z.string().nullable(),
    lastDate: z.string().nullable(),
    dates: z.number().int(),
    currencies: z.array(z.string()),
  }),
);

/** Whether each background service is on (`GET` and `POST /dev-tools/services`). */
export const serviceStatesSchema = z.strictObject({ pipeline: z.enum(['on', 'off']), sweeper: z.enum(['on', 'off']), mail: z.enum(['on', 'off']) });

/** The log files, most recently written first (`listLogFiles`; size in bytes). */
export const logFilesSchema = z.array(z.strictObject({ file: z.string(), size: z.number().int(), modified: z.string() }));

/** The last lines of a log file, oldest first (`lastLines`; size of the whole file in bytes). */
export const logTailSchema = z.strictObject({
  file: z.string(),
  count: z.number().int(),
  lines: z.array(z.string()),
  truncated: z.boolean(),
  size: z.number().int(),
});
