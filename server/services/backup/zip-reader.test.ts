/**
 * The backup archive reader on archives archiver writes: plain and zip64 ones, stored and deflated
 * entries, and files that are not (whole) zip archives.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipFiles } from '../../../pipeline/testing/zips.js';
import { BadZipError, listZip, openEntry } from './zip-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'fa-zip-reader-'));

async function text(file: string, name: string): Promise<string> {
  const entry = (await listZip(file)).find((e) => e.name === name)!;
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(file, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('backup zip reader', () => {
  const manifest = JSON.stringify({ format: 1, files: [] });
  const big = 'line of a table\n'.repeat(50_000);

  it.each([false, true])('lists and streams every entry (zip64 records: %s)', async (forceZip64) => {
    const file = join(dir, `plain-${forceZip64}.zip`);
    writeFileSync(
      file,
      await zipFiles(
        new Map([
          ['manifest.json', manifest],
          ['database/fund-audit.sqlite', big],
        ]),
        { forceZip64 },
      ),
    );
    const entries = await listZip(file);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['manifest.json', 8, manifest.length],
      ['database/fund-audit.sqlite', 8, big.length],
    ]);
    expect(entries[1].compressedSize).toBeLessThan(big.length / 10);
    expect(await text(file, 'manifest.json')).toBe(manifest);
    expect(await text(file, 'database/fund-audit.sqlite')).toBe(big);
  });

  it('refuses a file that is not a zip archive, or only its beginning', async () => {
    const notZip = join(dir, 'not.zip');
    writeFileSync(notZip, 'not a zip archive');
    await expect(listZip(notZip)).rejects.toThrow(BadZipError);
    const whole = join(dir, 'whole.zip');
    writeFileSync(whole, await zipFiles(new Map([['manifest.json', manifest]])));
    const cut = join(dir, 'cut.zip');
    writeFileSync(cut, readFileSync(whole).subarray(0, 40));
    await expect(listZip(cut)).rejects.toThrow(/end of central directory/i);
  });

  it('fails the stream of an entry that inflates to another size than its directory entry says', async () => {
    const file = join(dir, 'sizes.zip');
    writeFileSync(file, await zipFiles(new Map([['blob', big]])));
    const [entry] = await listZip(file);
    const read = async (size: number) => {
      let n = 0;
      for await (const chunk of await openEntry(file, { ...entry, size })) n += (chunk as Buffer).length;
      return n;
    };
    expect(await read(entry.size)).toBe(big.length);
    await expect(read(entry.size + 10)).rejects.toThrow(/not enough bytes in the stream/);
    await expect(read(entry.size - 10)).rejects.toThrow(/too many bytes in the stream/);
  });
});
