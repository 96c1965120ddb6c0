/** `fund-audit audit list|verify|export`: the security audit log of the local data directory. */
import { createWriteStream } from 'node:fs';
import type { Command } from 'commander';
import { exportAuditLog, listAuditLog, verifyAuditLog } from '../../server/services/audit/audit-log.js';
import { globals, openLocal } from '../global.js';
import { EXIT, output, printTable } from '../output.js';

export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('The security audit log: sign-ins, view switches, keys, impersonation, user changes, deletions');

  audit
    .command('list')
    .description('Show the newest entries')
    .option('-n, --limit <n>', 'how many entries (1-1000)', '50')
    .action(async (opts: { limit: string }, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const entries = await listAuditLog(ctx, { limit: Number(opts.limit) || 50 });
        output(entries, Boolean(g.json), () =>
          printTable(
            entries.map((e) => ({
              id: e.id,
              at: e.at,
              actor: e.actorEmail ?? '',
              action: e.action,
              subject: e.subject ?? '',
              details: JSON.stringify(e.details),
            })),
          ),
        );
      } finally {
        ctx.close();
      }
    });

  audit
    .command('verify')
    .description('Check the hash chain: an edited or removed entry is named (exit code 1)')
    .action(async (_opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const result = await verifyAuditLog(ctx);
        output(result, Boolean(g.json), () => {
          if (result.ok) process.stdout.write(`The audit log is intact: ${result.entries} entr${result.entries === 1 ? 'y' : 'ies'}, every hash matches.\n`);
          else process.stdout.write(`The audit log was tampered with (${result.entries} entries read):\n${result.problems.map((p) => `  - ${p}\n`).join('')}`);
        });
        if (!result.ok) process.exitCode = EXIT.failure;
      } finally {
        ctx.close();
      }
    });

  audit
    .command('export')
    .description('Write every entry, oldest first, as JSON lines (with the hashes, so the export can be verified elsewhere)')
    .option('--to <file>', 'file to write (default: standard output)')
    .action(async (opts: { to?: string }, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const out: NodeJS.WritableStream = opts.to ? createWriteStream(opts.to) : process.stdout;
        let count = 0;
        for await (const line of exportAuditLog(ctx)) {
          count++;
          if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
        }
        if (opts.to) {
          await new Promise<void>((res) => out.end(() => res()));
          process.stderr.write(`${count} entries written to ${opts.to}\n`);
        }
      } finally {
        ctx.close();
      }
    });
}
