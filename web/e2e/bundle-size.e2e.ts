/** The first load of the web UI (entry chunk and its static imports) stays under 400 KB gzipped JS. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { assertBuilt, repoRoot } from './harness';

interface Meta {
  outputs: Record<string, { entryPoint?: string; imports: Array<{ path: string; kind: string }>; cssBundle?: string }>;
}

/** Output files loaded before any lazy page: the entry and its static imports, transitively. */
function firstLoadFiles(meta: Meta): string[] {
  const entry = Object.keys(meta.outputs).find((k) => meta.outputs[k]!.entryPoint?.endsWith('web/src/main.tsx'));
  if (!entry) throw new Error('no web entry in dist/web-meta.json');
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of meta.outputs[file]!.imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) stack.push(i.path);
  }
  return [...seen];
}

describe('bundle size', () => {
  it('keeps the first load under 400 KB gzipped JS', () => {
    assertBuilt();
    const meta = JSON.parse(readFileSync(join(repoRoot, 'dist/web-meta.json'), 'utf8')) as Meta;
    const files = firstLoadFiles(meta);
    const gz = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(repoRoot, f))).length, 0);
    console.log(`first-load JS: ${files.length} files, ${(gz / 1024).toFixed(1)} KB gzipped`);
    expect(gz).toBeLessThan(400 * 1024);
  });
});
