/**
 * `fund-audit mappings list|upload|download`: the live mappings of the local data directory or of
 * a server (--server), with the same rules as the Live mappings screen.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../server/errors.js';
import { mappingCsv } from '../../server/services/mappings/downloads.js';
import { createMapping, listMappings, type MappingMode, type MappingView } from '../../server/services/mappings/mappings.js';
import { ensureAdmin } from '../../server/services/users/users.js';
import { globals, openLocal } from '../global.js';
import { output } from '../output.js';
import { showTable } from '../ui/reporter.js';
import { isRemote, remoteCall } from '../remote.js';

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
            funds: m.fundRequests.map((f) => f.code ?? f.id).join(' '),
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
    .option('--reason <text>', 'why the custom mapping is created (required for custom; at most 50)')
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
    .option('-o, --output <file>', 'output file (default <mapping name>.csv)')
    .action(async (id: string, opts, c: Command) => {
      const g = globals(c);
      let f: { fileName: string; text: string };
      if (isRemote(g)) {
        const { token } = await remoteCall<{ token: string }>(g, 'GET', 'export/token');
        const res = await fetch(`${g.server!.replace(/\/$/, '')}/api/v2.0/mappings/download?id=${Number(id)}&token=${token}`);
        if (!res.ok) throw new ValidationError(`Download failed: HTTP ${res.status}`);
        f = { fileName: `mapping_${id}.csv`, text: await res.text() };
      } else {
        const ctx = await openLocal(g);
        try {
          f = mappingCsv(ctx, Number(id));
        } finally {
          ctx.close();
        }
      }
      const out = opts.output ?? f.fileName;
      writeFileSync(out, f.text);
      output({ file: out }, !!g.json, () => process.stdout.write(`Wrote ${out}\n`));
    });
}
