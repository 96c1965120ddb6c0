import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeSpans, releaseDate } from './whats-new';
import { RELEASES } from './whats-new.data';

const root = join(__dirname, '../../../..');

describe("What's New", () => {
  it('is generated from the current CHANGELOG.md', () => {
    const r = spawnSync(process.execPath, [join(root, 'web/scripts/changelog.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('starts with the released version of the package, newest first', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(RELEASES[0]?.version).toBe(pkg.version);
    expect(RELEASES[0]?.groups[0]?.items.length).toBeGreaterThan(5);
  });

  it("lists the data platform's releases the spec names (2.9.1, October 2024, back to 2.6, January 2021) after the product's own", () => {
    const versions = RELEASES.map((r) => r.version);
    expect(versions.slice(-2)).toEqual(['2.9.1', '2.6']);
    expect(RELEASES.slice(-2).map((r) => releaseDate(r.date))).toEqual(['October 2024', 'January 2021']);
    // newest first by date
    const dates = RELEASES.map((r) => r.date ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('formats release dates and code spans', () => {
    expect(releaseDate('2026-11-22')).toBe('22/11/2026');
    expect(releaseDate('2024-10')).toBe('October 2024');
    expect(releaseDate(null)).toBe('');
    expect(codeSpans('run `fund-audit users link` now')).toEqual(['run ', 'fund-audit users link', ' now']);
  });
});
