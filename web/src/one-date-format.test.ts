/**
 * Every screen shows dates one way, DD/MM/YYYY (with HH:mm:ss for a timestamp), through the one
 * formatter, `displayDate` / `displayDateTime` of rules/dates.ts, and takes them in through the one
 * date input (components/date-input.tsx, PrimeReact's Calendar as dd/mm/yy). This reads the UI's
 * sources for the ways a date could be shown or typed otherwise: the browser's locale formats, a
 * second formatter, a hand-built date text, a native date input or a Calendar in another format.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const FORBIDDEN: readonly [RegExp, string][] = [
  [/\.toLocale(Date|Time)String\(/, "the browser's locale date format"],
  [/\.toISOString\(\)\.slice\(/, 'a UTC date cut out of a timestamp'],
  [/\b(formatDate|formatDateTime|formatFileDate)\b/, 'a second date formatter'],
  [/\.get(Full)?Year\(\)|\.getUTCDate\(\)/, 'a date text built by hand'],
  [/type=["']date["']|type=\{type\}/, "a native date input (the browser's locale format)"],
  [/dateFormat=(?!"dd\/mm\/yy")/, 'a Calendar in another format than dd/mm/yy'],
];

describe('one date format on every screen', () => {
  const files = sources(root);

  it('reads the UI sources', () => expect(files.length).toBeGreaterThan(100));

  it('formats and takes dates only through rules/dates.ts and the one date input', () => {
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      text.split('\n').forEach((line, i) => {
        for (const [re, why] of FORBIDDEN) if (re.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${why}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
