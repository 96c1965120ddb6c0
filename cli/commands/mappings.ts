/**
 * `fund-audit mappings list|upload|download|history|diff`: the live mappings of the local data
 * directory or of a server (--server), with the same rules as the Live mappings screen; every
 * version of a mapping, the funds each fed, and the rows changed between two versions.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { AppContext } from '../../server/context.js';
import { ValidationError } from '../../server/errors.js';
import { mappingCsv } from '../../server/services/mappings/downloads.js';
import { createMapping, listMappings, type MappingMode, type MappingView } from '../../server/services/mappings/mappings.js';
import { diffMappingVersions, mappingHistory, type MappingHistory } from '../../server/services/mappings/versions.js';
import { ensureAdmin } from '../../server/services/users/users.js';
import { globals, openLocal } from '../global.js';
import { output } from '../output.js';
import { showTable } from '../ui/reporter.js';
import { fetchWithRetry, isRemote, remoteCall } from '../remote.js';

export function registerMappings(program: Command): void {
  const cmd = program.command('mappings').description('List, upload and download TPA mappings');

  cmd
    .command('list')
    .description('List active mappings (master and custom) with the funds that use them')
    .option('--tpa <code>', 'only this administrator')
    .option('--type <type>', 'only this mapping type')
    .action(async (opts, c: Command) => {
      const g = globals(c);
      let rows: MappingView[];
      if (isRemote(g)) rows = await remoteCall<MappingView[]>(g, 'GET', 'mappings');
      else {
        const ctx = await openLocal(g);
        try {
          rows = listMappings(ctx);
        } finally {
          ctx.close();
        }
      }
      rows = rows.filter((m) => (!opts.tpa || m.administrator.code === opts.tpa) && (!opts.type || m.type === opts.type));
      if (g.json) output(rows, true, () => undefined);
      else
        await showTable(
          rows.map((m) => ({
            id: m.id,
            tpa: m.administrator.code,
            type: m.type,
            kind: m.kind,
            name: m.description,
            rows: m.rowCount,
            owner: m.owner ?? '',
            version: m.version,
            funds: (m.funds ?? m.fundRequests).map((f) => f.code ?? f.id).join(' '),
            deletable: m.canLiveMappingBeDeleted ? 'yes' : 'no',
          })),
        );
    });

  cmd
    .command('upload')
    .description('Upload a mapping csv: a master mapping, a new custom mapping or an update of one')
    .argument('<file>', 'csv: source_code,target_code[,description] (file_layout: sdm_type,source_column,sdm_column,...)')
    .requiredOption('--tpa <code>', 'administrator code')
    .requiredOption('--type <type>', 'file_layout, account_mapping, instrument_mapping, transaction_mapping or share_capital_mapping')
    .option('--mode <mode>', 'master, custom or update-custom', 'master')
    .option('--name <name>', 'custom mapping name (lowercase letters, digits, underscore; at most 50)')
    .option('--custom-id <id>', 'the custom mapping to update (update-custom)')
    .option('--client <name>', 'client name of a custom mapping')
    .option('--reason <text>', 'why: required for a new custom mapping (at most 50); for master and update-custom, recorded with the new version (at most 200)')
    .action(async (file: string, opts, c: Command) => {
      const g = globals(c);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch (err) {
        throw new ValidationError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      const input = {
        administrator: opts.tpa,
        mappingType: opts.type,
        mappingMode: opts.mode as MappingMode,
        mappingName: opts.name,
        customId: opts.customId ? Number(opts.customId) : undefined,
        clientName: opts.client,
        rationale: opts.reason,
      };
      let saved: unknown;
      if (isRemote(g)) {
        const form = new FormData();
        for (const [k, v] of Object.entries(input)) if (v !== undefined) form.append(k, String(v));
        form.append('upload', new Blob([new Uint8Array(bytes)]), basename(file));
        saved = await remoteCall(g, 'POST', 'mappings/create', form);
      } else {
        const ctx = await openLocal(g);
        try {
          const { user } = ensureAdmin(ctx, ctx.config.adminEmail);
          saved = createMapping(ctx, user, { ...input, fileName: basename(file), bytes });
        } finally {
          ctx.close();
        }
      }
      output(saved, !!g.json, () => process.stdout.write(`${basename(file)} uploaded as ${(saved as { description: string }).description}\n`));
    });

  cmd
    .command('download')
    .description('Write a mapping as csv')
    .argument('<id>', 'mapping id (see mappings list)')
    .option('-o, --output <file>', 'output file (default <mapping name>.csv, <mapping name>_v<version>.csv)')
    .option('--at-version <n>', 'one of its versions (see mappings history), default the current content')
    .action(async (id: string, opts, c: Command) => {
      const g = globals(c);
      const mappingId = positive('mapping id', id);
      const version = opts.atVersion === undefined ? undefined : positive('--at-version', opts.atVersion);
      let f: { fileName: string; text: string };
      if (isRemote(g)) {
        const { token } = await remoteCall<{ token: string }>(g, 'GET', 'export/token');
        const res = await fetchWithRetry(
          g,
          `${g.server!.replace(/\/$/, '')}/api/v2.0/mappings/download?id=${mappingId}&token=${token}${version ? `&version=${version}` : ''}`,
          {},
          true,
        );
        if (!res.ok) throw new ValidationError(`Download failed: HTTP ${res.status}`);
        f = { fileName: version ? `mapping_${mappingId}_v${version}.csv` : `mapping_${mappingId}.csv`, text: await res.text() };
      } else {
        const ctx = await openLocal(g);
        try {
          f = mappingCsv(ctx, mappingId, version);
        } finally {
          ctx.close();
        }
      }
      const out = opts.output ?? f.fileName;
      writeFileSync(out, f.text);
      output({ file: out }, !!g.json, () => process.stdout.write(`Wrote ${out}\n`));
    });

  cmd
    .command('history')
    .description("A mapping's versions (newest first): author, reason, time, rows, content hash and the funds each fed")
    .argument('<id>', 'mapping id (see mappings list)')
    .action(async (id: string, _opts, c: Command) => {
      const g = globals(c);
      const mappingId = positive('mapping id', id);
      const h = isRemote(g)
        ? await remoteCall<MappingHistory>(g, 'GET', `mappings/${mappingId}/history`)
        : await local(g, (ctx) => mappingHistory(ctx, mappingId));
      if (g.json) return output(h, true, () => undefined);
      process.stdout.write(`${h.description} (id ${h.id}, ${h.kind} ${h.type} of ${h.administrator.code}), current version ${h.currentVersion}\n`);
      await showTable(
        h.versions.map((v) => ({
          version: v.current ? `${v.version} (current)` : v.version,
          created: v.createdAt.slice(0, 19).replace('T', ' '),
          author: v.author ?? '',
          reason: v.reason,
          rows: v.rowCount,
          sha256: v.sha256.slice(0, 12),
          funds: v.funds.map((f) => f.code ?? f.id).join(' '),
        })),
      );
    });

  cmd
    .command('diff')
    .description('Rows added, removed and changed from version V1 to version V2 of a mapping')
    .argument('<id>', 'mapping id (see mappings list)')
    .argument('<v1>', 'the older version')
    .argument('<v2>', 'the newer version')
    .action(async (id: string, v1: string, v2: string, _opts, c: Command) => {
      const g = globals(c);
      const mappingId = positive('mapping id', id);
      const from = positive('V1', v1);
      const to = positive('V2', v2);
      const d = isRemote(g)
        ? await remoteCall<MappingVersionDiff>(g, 'GET', `mappings/${mappingId}/diff?from=${from}&to=${to}`)
        : await local(g, (ctx) => diffMappingVersions(ctx, mappingId, from, to));
      output(d, !!g.json, () => process.stdout.write(formatDiff(d)));
    });
}

type MappingVersionDiff = ReturnType<typeof diffMappingVersions>;

/** A diff as text: one line a row, `+` added, `-` removed, `~` changed (column: old -> new). */
export function formatDiff(d: MappingVersionDiff): string {
  const show = (r: Record<string, string>) =>
    Object.entries(r)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
  const lines = [
    `${d.description} (id ${d.id}): version ${d.from} -> ${d.to}: ${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed, ${d.unchanged} unchanged`,
    ...d.added.map((x) => `+ ${x.key}: ${show(x.row)}`),
    ...d.removed.map((x) => `- ${x.key}: ${show(x.row)}`),
    ...d.changed.map((x) => `~ ${x.key}: ${x.columns.map((col) => `${col} ${x.from[col] ?? ''} -> ${x.to[col] ?? ''}`).join(', ')}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** A whole number >= 1 given on the command line. @throws ValidationError naming the argument */
function positive(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new ValidationError(`${name} must be a positive whole number, not '${value}'`);
  return Number(value);
}

/** Runs `fn` on the local data directory, closing it afterwards. */
async function local<T>(g: ReturnType<typeof globals>, fn: (ctx: AppContext) => T): Promise<T> {
  const ctx = await openLocal(g);
  try {
    return fn(ctx);
  } finally {
    ctx.close();
  }
}
