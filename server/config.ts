/**
 * Server configuration: every setting, its default, and where it may be set.
 * Precedence (lowest to highest): defaults < `<dataDir>/config.json` < `FUND_AUDIT_*` environment
 * variables < CLI flags. Validated with zod at start; a bad value throws a ConfigError naming the
 * setting, where it came from and what is allowed. Documented in docs/configuration.md.
 */
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseTrustedProxies } from './lib/proxies.js';

const bool = z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])]).transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const ROLE_NAMES = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'] as const;
/** A JSON object (or its text) mapping identity provider groups to roles. */
const oidcRoleMap = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .transform((v, c) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      c.addIssue({ code: 'custom', message: 'must be a JSON object such as {"fund-audit-admins":"Admin"}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), z.enum(ROLE_NAMES, { error: `roles are ${ROLE_NAMES.join(', ')}` })));

/** The schema of every setting, with its default. Keys are camelCase; env names are FUND_AUDIT_<UPPER_SNAKE>. */
export const configSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: int(0, 65535).default(8080),
    publicUrl: z.string().url().optional(),
    /** Path prefix everything is served under behind a reverse proxy that keeps it (e.g. `/fund-audit`); '' serves from the root. */
    basePath: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)*\/?$/, 'a path such as /fund-audit (letters, digits, . _ ~ -, segments separated by /)')
      .transform((v) => v.replace(/\/+$/, ''))
      .default(''),
    mode: z.enum(['production', 'development']).default('production'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    adminEmail: z.string().email().default('admin@fund-audit.local'),
    seedDemoData: bool.default(true),
    /** With the demo data of a first start `serve` also imports demo deliveries, which its job threads run through the pipeline. */
    demoDeliveries: bool.default(true),
    /** With the demo data of a first start `serve` also writes a year of delivery and chase history for the demo TPAs (scorecards). */
    demoHistory: bool.default(true),
    sessionTtlHours: int(1, 24 * 365).default(12),
    signinLinkTtlHours: int(1, 24 * 30).default(24),
    downloadTokenTtlMs: int(1000, 3_600_000).default(50_000),
    pbiTokenTtlHours: int(1, 24 * 365).default(168),
    maxUploadBytes: int(1024, 2 ** 40).default(200 * 1024 * 1024),
    identificationLimitBytes: int(1024, 2 ** 40).default(10_000_000),
    /** Most data rows read from an uploaded mapping file or PowerBI input; a longer file is refused before it is checked row by row. */
    maxUploadRows: int(1, 100_000_000).default(100_000),
    /** Most rows of a bulk upload of fund requests (also a self-onboarding fund_request.csv): each row is validated and answered. */
    maxBulkUploadRows: int(1, 10_000_000).default(20_000),
    inboxDir: z.string().optional(),
    inboxPollMs: int(100, 3_600_000).default(5000),
    /** Job worker threads of this process (default: cores - 1, at least 1; 0 runs no jobs here). */
    workers: int(0, 64).default(() => Math.max(1, availableParallelism() - 1)),
    /** How long a claimed job stays its worker's without a renewal; a dead worker's job is taken over after it. */
    jobLeaseSeconds: int(2, 3600).default(60),
    /** Fund aggregation: a child's conversion rate dated more than this many calendar days before its period end is reported stale. */
    fxMaxAgeDays: int(0, 3650).default(5),
    /**
     * FX: a rate (independent, or in a TPA's FX table) dated more than this many business days
     * (Mon-Fri) before the period end is never used: its currency is NOT PERFORMED (docs/decisions/0021-fx-rates.md).
     */
    fxMaxAgeBusinessDays: int(0, 260).default(5),
    /** FX testing: a TPA rate within this percentage (0-100) of the independent rate is no exception; a fund request's own `fx_tolerance` wins. */
    fxTolerancePct: z.coerce.number().min(0).max(100).default(0.5),
    /** Fund aggregation: a parent whose children's rows (every SDM type) number more than this is not computed ('Too large'). */
    aggregationMaxRows: int(1, 1_000_000_000).default(2_000_000),
    devToolsEnabled: bool.default(false),
    devToolsLocal: bool.default(false),
    mappings: bool.default(true),
    testRunner: bool.default(true),
    demo: bool.default(false),
    aggregation: bool.default(false),
    sdmUpload: bool.default(true),
    customMappings: bool.default(true),
    deleteLuxData: bool.default(false),
    pbiInputs: bool.default(false),
    allowQAValidation: bool.default(true),
    investmentAnalyzerEnabled: bool.default(false),
    newStatusDesign: bool.default(false),
    identificationProcess: bool.default(true),
    branchChangeEnabled: bool.default(false),
    branchUpdateEnabled: bool.default(false),
    impersonateEnabled: bool.default(false),
    isDbPushEnabled: bool.default(false),
    /** Support contact: its e-mail on /signup and behind the frame's 'Support' link (unset: no address is shown). */
    supportEmail: z.string().email().optional(),
    /** Address of the external WAM Sampling Wizard (WAM Tools tab); unset: the tab says it is not configured. */
    samplingWizardUrl: z.string().url().optional(),
    /** Also write JSON lines to `<dataDir>/logs/fund-audit.log`, rotated by size (`logFileMaxSize`) keeping `logFileKeep` old files. */
    logFile: bool.default(true),
    logFileMaxSize: z
      .string()
      .regex(/^\d+[KMG]$/, 'a size like 10M (K, M or G)')
      .default('10M'),
    logFileKeep: int(1, 1000).default(10),
    /** Proxies whose X-Forwarded-For is believed: comma-separated addresses or CIDR ranges (e.g. `127.0.0.1,10.0.0.0/8`). */
    trustedProxies: z
      .string()
      .default('')
      .superRefine((value, check) => {
        try {
          parseTrustedProxies(value);
        } catch (err) {
          check.addIssue({ code: 'custom', message: (err as Error).message });
        }
      }),
    /** Key that `GET /metrics` requires (`Authorization: Bearer <key>`); metrics are off unless this or `metricsPort` is set. */
    metricsKey: z.string().min(16, 'at least 16 characters').optional(),
    /** Serve `/metrics` on its own address (`metricsHost:metricsPort`) instead of the main port. */
    metricsPort: int(1, 65535).optional(),
    metricsHost: z.string().min(1).default('127.0.0.1'),
    /** TLS certificate and private key files (PEM) for HTTPS on the main port; both or neither. */
    tlsCert: z.string().min(1).optional(),
    tlsKey: z.string().min(1).optional(),
    /** Cron expression of scheduled backups (5 or 6 fields, e.g. `0 3 * * *`); none when unset. */
    backupSchedule: z.string().min(1).optional(),
    /** How many scheduled backups to keep (older ones are deleted). */
    backupKeep: int(1, 10_000).default(7),
    /** Folder of scheduled backups (default `<dataDir>/backups/scheduled`). */
    backupDir: z.string().min(1).optional(),
    /** SMTP server of the chase mails (`smtp://user:pass@host:587`, `smtps://...`); unset: chase mails wait in the outbox. */
    smtpUrl: z
      .string()
      .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:secret@mail.example.com:587')
      .optional(),
    /** The From of chase mails (an address, or `Name <address>`). */
    mailFrom: z.string().min(3).default('Fund Audit <fund-audit@example.com>'),
    /** The Reply-To of chase mails (unset: none, replies go to the From). */
    mailReplyTo: z.string().min(3).optional(),
    /** How many times the outbox tries one mail before giving up on it. */
    mailMaxAttempts: int(1, 100).default(8),
    /** The first retry's wait (ms); each further retry waits twice as long, at most an hour. */
    mailRetryBaseMs: int(10, 3_600_000).default(30_000),
    /** How long one SMTP conversation may take before it counts as failed (ms). */
    mailTimeoutMs: int(100, 600_000).default(30_000),
    /** Cron expression of the periodic chase run (croner; server time zone), e.g. `0 6 * * 1-5`; 'off' runs none. */
    chaseSchedule: z.string().min(1).default('0 6 * * *'),
    /** Reminder days of missing files relative to the data due date (negative: before), comma-separated. */
    chaseOffsets: z
      .string()
      .regex(/^\s*-?\d{1,3}(\s*,\s*-?\d{1,3})*\s*$/, 'comma-separated whole days such as -3,0,3,7')
      .default('-3,0,3,7'),
    /** From which late reminder (1 = first after the due date) the escalation contacts are copied in. */
    chaseEscalateFrom: int(1, 50).default(2),
    privacyStatementVersion: z.string().min(1).default('1.0'),
    /** OpenID Connect single sign-on (docs/configuration.md "Single sign-on"): on when the issuer is set. */
    oidcIssuer: z.string().url().optional(),
    oidcClientId: z.string().min(1).optional(),
    oidcClientSecret: z.string().min(1).optional(),
    oidcScopes: z.string().min(1).default('openid email profile'),
    oidcRolesClaim: z.string().min(1).default('groups'),
    /** Identity provider group -> role, as a JSON object (a string in the environment). */
    oidcRoleMap: oidcRoleMap.default({}),
    /**
     * Whether a single sign-on may take over a user made otherwise (the CLI, the key generator) by
     * its e-mail address, when the provider says the address is verified (`email_verified: true`).
     * Never the Root users or the first administrator (break-glass access).
     */
    oidcLinkByEmail: bool.default(false),
    /**
     * The secret key of the audit log's hash chain (at least 32 characters), the same on every node;
     * unset: the data directory's `audit-log.key`, made at first use. Kept outside the database.
     */
    auditLogKey: z.string().min(32).optional(),
    /** Requests a client may make per minute to start or finish a sign-in (links, single sign-on). */
    rateLimitSignInPerMinute: int(1, 100_000).default(30),
    /** Live-socket upgrades a client may make per minute (a browser tab opens one, and again after each reconnect). */
    rateLimitSocketPerMinute: int(1, 100_000).default(60),
    /** Wrong tokens a client may send per minute before it is refused for a minute. */
    rateLimitBadTokensPerMinute: int(1, 100_000).default(20),
    /** Calls one API key may make per minute. */
    rateLimitApiKeyPerMinute: int(1, 1_000_000).default(3000),
    dbName: z
      .string()
      .regex(/^[\w.-]+$/)
      .default('fund-audit.sqlite'),
    /**
     * A PostgreSQL database (`postgres://user:password@host:port/database`) instead of the data
     * directory's SQLite file: `serve` and `worker` nodes (with a shared `blobDir`) and the
     * commands opening the install run on it (docs/decisions/0011-postgresql-beside-sqlite.md).
     */
    /**
     * Root of the blob store (raw deliveries, pipeline outputs, work papers, exports), default
     * `<dataDir>/blobs`; a relative path is inside the data directory. Several nodes point it at one
     * shared directory (see `blobRoot`).
     */
    blobDir: z.string().min(1).optional(),
    databaseUrl: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL, e.g. postgres://fund_audit:secret@db.example.com:5432/fund_audit')
      .optional(),
  })
  .strict()
  .superRefine((c, check) => {
    if (c.oidcIssuer && !c.oidcClientId) check.addIssue({ code: 'custom', path: ['oidcClientId'], message: 'is required when oidcIssuer is set' });
    if (c.basePath && c.publicUrl && new URL(c.publicUrl).pathname.replace(/\/+$/, '') !== c.basePath)
      check.addIssue({
        code: 'custom',
        path: ['publicUrl'],
        message: `must be the address users open, with the base path ${c.basePath} (e.g. https://audit.example.com${c.basePath})`,
      });
  });

export type AppConfig = z.infer<typeof configSchema> & { dataDir: string };

/**
 * The blob store root of a configuration: `blobDir` made absolute (relative to the data
 * directory), else `<dataDir>/blobs`.
 */
export function blobRoot(config: Pick<AppConfig, 'dataDir' | 'blobDir'>): string {
  return resolve(config.dataDir, config.blobDir ?? 'blobs');
}

/** Where a setting's value came from. */
export type ConfigSource = 'default' | 'config file' | 'environment' | 'command line';

/** Sources of the settings of each configuration `loadConfig` made (a config made otherwise has none). */
const sourcesOf = new WeakMap<AppConfig, Partial<Record<string, ConfigSource>>>();

/**
 * Where each setting of a configuration came from (developer tools, spec "config sources").
 * @returns per setting: 'default' unless the config file, an environment variable or a flag set it
 */
export function configSources(config: AppConfig): Record<string, ConfigSource> {
  const known = sourcesOf.get(config) ?? {};
  return Object.fromEntries(Object.keys(configSchema.shape).map((key) => [key, known[key] ?? 'default']));
}
export type ConfigInput = Partial<Record<keyof z.input<typeof configSchema>, unknown>>;

/** Thrown when a setting is invalid; the message names the setting and its source. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `devToolsEnabled` -> `FUND_AUDIT_DEV_TOOLS_ENABLED`. */
export function envName(key: string): string {
  return 'FUND_AUDIT_' + key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Reads `FUND_AUDIT_*` variables for the known keys. */
function fromEnv(env: NodeJS.ProcessEnv): ConfigInput {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[envName(key)];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

function fromFile(file: string): ConfigInput {
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('must hold a JSON object');
    return parsed as ConfigInput;
  } catch (err) {
    throw new ConfigError(`Invalid configuration file ${file}: ${(err as Error).message}`);
  }
}

/**
 * Resolves the configuration for a data directory.
 * @param opts.dataDir data directory (default `FUND_AUDIT_DATA_DIR` or `./.data`), made absolute
 * @param opts.flags values given as CLI flags (highest precedence)
 * @param opts.env environment (default process.env)
 * @throws ConfigError naming each bad setting and its source
 */
export function loadConfig(opts: { dataDir?: string; flags?: ConfigInput; env?: NodeJS.ProcessEnv } = {}): AppConfig {
  const env = opts.env ?? process.env;
  const dataDir = resolve(opts.dataDir ?? env.FUND_AUDIT_DATA_DIR ?? '.data');
  const file = join(dataDir, 'config.json');
  const layers: Array<[string, ConfigSource, ConfigInput]> = [
    [file, 'config file', fromFile(file)],
    ['environment', 'environment', fromEnv(env)],
    ['command line', 'command line', Object.fromEntries(Object.entries(opts.flags ?? {}).filter(([, v]) => v !== undefined))],
  ];
  const merged: Record<string, unknown> = {};
  const sourceOf: Record<string, string> = {};
  const kindOf: Record<string, ConfigSource> = {};
  for (const [source, kind, layer] of layers) {
    for (const [key, value] of Object.entries(layer)) {
      merged[key] = value;
      sourceOf[key] = source;
      kindOf[key] = kind;
    }
  }
  const result = configSchema.safeParse(merged);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      if (issue.code === 'unrecognized_keys') {
        return `unknown setting(s) ${issue.keys.join(', ')} in ${file}`;
      }
      const where = sourceOf[key] === 'environment' ? envName(key) : `${key} (${sourceOf[key] ?? 'default'})`;
      return `${where}: ${issue.message} (got ${JSON.stringify(merged[key])})`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config: AppConfig = { ...result.data, dataDir };
  sourcesOf.set(config, kindOf);
  return config;
}
