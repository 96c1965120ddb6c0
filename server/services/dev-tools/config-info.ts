/**
 * What the Options tab of the developer tools shows (delivery spec section 7 `GET
 * /dev-tools/config`, `/dev-tools/config/sources`, `/dev-tools/iomConfig`): the effective
 * settings, where each value came from, and the input/output model the pipeline works with.
 */
import { join } from 'node:path';
import { MAPPING_TYPES, SDM_COLUMNS, SDM_TYPES } from '../../../pipeline/sdm/model.js';
import { configSources, envName, type ConfigSource } from '../../config.js';
import type { AppContext } from '../../context.js';
import { STAGES } from '../../db/schema/index.js';

/** One setting with its value. */
export interface SettingValue {
  key: string;
  value: unknown;
  env: string;
}

/** Settings whose value is a secret: shown as `(set)`, never as the value. */
const SECRET_SETTINGS = new Set(['metricsKey', 'oidcClientSecret', 'databaseUrl', 'smtpUrl', 'auditLogKey']);

/** The effective configuration: every setting, its value and its environment variable. */
export function effectiveConfig(ctx: AppContext): SettingValue[] {
  return Object.entries(ctx.config).map(([key, value]) => ({ key, value: SECRET_SETTINGS.has(key) && value ? '(set)' : value, env: envName(key) }));
}

/** Where the configuration came from: the file read, and the source of every setting. */
export function configSourceList(ctx: AppContext): {
  file: string;
  precedence: ConfigSource[];
  settings: Array<{ key: string; source: ConfigSource; env: string }>;
} {
  const sources = configSources(ctx.config);
  return {
    file: join(ctx.config.dataDir, 'config.json'),
    precedence: ['default', 'config file', 'environment', 'command line'],
    settings: Object.entries(sources).map(([key, source]) => ({ key, source, env: envName(key) })),
  };
}

/** Export file kinds (spec section 9). */
export const EXPORT_FILE_KINDS = ['logs', 'errors', 'input_files', 'standardization', 'calculations', 'work_papers', 'users', 'pbi_inputs'] as const;

/**
 * The input/output model of the pipeline ("iomConfig"): the stages in order, the SDM input types
 * with their columns (required ones marked), the mapping types, the export file kinds and the
 * limits that apply to inputs.
 */
export function iomConfig(ctx: AppContext) {
  return {
    stages: [...STAGES],
    inputs: SDM_TYPES.filter((t) => t !== 'fund_request').map((type) => ({
      type,
      columns: SDM_COLUMNS[type as Exclude<typeof type, 'fund_request'>].map((c) => ({ name: c.name, kind: c.kind, required: c.required })),
    })),
    mappingTypes: [...MAPPING_TYPES],
    outputs: [...EXPORT_FILE_KINDS],
    limits: { identificationLimitBytes: ctx.config.identificationLimitBytes, maxUploadBytes: ctx.config.maxUploadBytes },
  };
}
