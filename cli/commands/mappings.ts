/**
 * `fund-audit mappings list|upload|download|history|diff`: the live mappings of the local data
 * directory or of a server (--server), through the mappings backend (cli/backend/mappings.ts), with the same rules as the Live mappings screen; every
 * version of a mapping, the funds each fed, and the rows changed between two versions.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../server/errors.js';
import type { MappingMode } from '../../server/services/mappings/mappings.js';
import { mappingsBackend, type MappingVersionDiff } from '../backend/mappings.js';
import { globals } from '../global.js';
import { output } from '../output.js';
import { showTable } from '../ui/reporter.js';

export function registerMappings(program: Command): void {
  const cmd = program.command('mappings').description('List, upload and download TPA mappings');

  cmd
    .command('list')
    .description('List active mappings (master and custom) with the funds that use them')
    .option('--tpa <code>', 'only this administrator')
    .option('--type <type>', 'only this mapping type')
    .action(async (opts, c: Command) => {
      const g = globals(c);
      const all = await mappingsBackend(g).list();
      const rows = all.filter((m) => (!opts.tpa || m.administrator.code === opts.tpa) && (!opts.type || m.type === opts.type));
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
      const saved = await mappingsBackend(g).upload(input, basename(file), bytes);
      output(saved, !!g.json, () => process.stdout.write(`${basename(file)} uploaded as ${saved.description}\n`));
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
      const f = await mappingsBackend(g).download(mappingId, version);
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
      const h = await mappingsBackend(g).history(mappingId);
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
      const d = await mappingsBackend(g).diff(mappingId, from, to);
      output(d, !!g.json, () => process.stdout.write(formatDiff(d)));
    });
}

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
