import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/cli.js';

describe('fund-audit audit', () => {
  it('lists, exports and verifies the security audit log, and names a tampered entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-cli-audit-'));
    expect(runCli(['--data-dir', dir, 'users', 'add', '--email', 'ada@example.com', '--name', 'Ada Lovelace', '--role', 'Auditor']).status).toBe(0);
    expect(runCli(['--data-dir', dir, 'users', 'key', 'sweeper']).status).toBe(0);

    const listed = runCli(['--data-dir', dir, '--json', 'audit', 'list']);
    expect(listed.status).toBe(0);
    const entries = JSON.parse(listed.stdout) as Array<{ id: number; action: string; details: Record<string, unknown> }>;
    expect(entries.map((e) => e.action).slice(0, 2)).toEqual(['key-generated', 'user-created']);

    const intact = runCli(['--data-dir', dir, 'audit', 'verify']);
    expect(intact.status).toBe(0);
    expect(intact.stdout).toMatch(/The audit log is intact: \d+ entries, every hash matches/);

    const file = join(dir, 'audit.jsonl');
    expect(runCli(['--data-dir', dir, 'audit', 'export', '--to', file]).status).toBe(0);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(entries.length);
    expect(lines.at(-1).hash).toMatch(/^hmac-sha256:[a-f0-9]{64}$/);

    // someone edits the database file directly
    const db = new Database(join(dir, 'fund-audit.sqlite'));
    db.exec('DROP TRIGGER audit_log_no_update');
    const created = entries.find((e) => e.action === 'user-created' && e.details.email === 'ada@example.com');
    db.prepare(`update audit_log set details = '{"email":"ada@example.com","role":"Admin"}' where id = ?`).run(created?.id);
    db.close();
    const tampered = runCli(['--data-dir', dir, 'audit', 'verify']);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toContain(`entry ${created?.id} was changed (its content does not match its hash)`);
  });

  it('fails verify on a log cut short, even with its highest-id counter reset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-cli-audit-'));
    expect(runCli(['--data-dir', dir, 'users', 'add', '--email', 'ada@example.com', '--name', 'Ada Lovelace', '--role', 'Auditor']).status).toBe(0);
    expect(runCli(['--data-dir', dir, 'users', 'key', 'sweeper']).status).toBe(0);
    expect(runCli(['--data-dir', dir, 'audit', 'verify']).status).toBe(0);
    const db = new Database(join(dir, 'fund-audit.sqlite'));
    const { top } = db.prepare('select max(id) as top from audit_log').get() as { top: number };
    db.exec('DROP TRIGGER audit_log_no_delete');
    db.prepare('delete from audit_log where id = ?').run(top);
    db.prepare("update sqlite_sequence set seq = ? where name = 'audit_log'").run(top - 1);
    db.close();
    const cut = runCli(['--data-dir', dir, 'audit', 'verify']);
    expect(cut.status).toBe(1);
    expect(cut.stdout).toContain(`entries ${top} are missing (removed: this node wrote entry ${top})`);
  });
});
