/**
 * The import layering (.dependency-cruiser.cjs, run by `npm test`): on a small tree that breaks
 * each rule once (a circle, an import from a floor of the server to one above), the check names every break and accepts what is allowed (type-only imports of
 * server types in the browser, services importing the pipeline, the pipeline importing rules/).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appRoot } from './paths.js';

const root = appRoot();
const dir = mkdtempSync(join(tmpdir(), 'fa-layers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files: Record<string, string> = {
  'pipeline/checks/nav.ts': "import { NotFoundError } from '../../server/errors.js';\nexport const nav = () => NotFoundError;\n",
  'pipeline/readers/ok.ts': "import { rule } from '../../rules/ok.js';\nexport const ok = rule;\n",
  'rules/ok.ts': 'export const rule = 1;\n',
  'rules/bad.ts':
    "import { ok } from '../pipeline/readers/ok.js';\nimport { H3 } from 'h3';\nimport { route } from '../server/http/route.js';\nexport const b = [ok, H3, route];\n",
  'server/errors.ts': 'export class NotFoundError extends Error {}\n',
  'server/http/route.ts': "export const route = 'r';\n",
  'server/services/funds/bad.ts': "import { route } from '../../http/route.js';\nimport { H3 } from 'h3';\nexport const x = [route, H3];\n",
  'server/services/funds/good.ts': "import { ok } from '../../../pipeline/readers/ok.js';\nexport const y = ok;\n",
  'server/queue/q.ts': "import { y } from '../services/funds/good.js';\nexport const q = y;\n",
  'server/services/funds/starts.ts': "import { stage } from '../../jobs/stage.js';\nexport const s = stage;\n",
  'server/services/cache/c.ts': "import { y } from '../funds/good.js';\nexport const c = y;\n",
  'server/services/files/f.ts': "import { y } from '../funds/good.js';\nexport const f = y;\n",
  'server/jobs/stage.ts': "import { q } from '../queue/q.js';\nexport const stage = q;\n",
  'pipeline/testing/zips.ts': 'export const zips = 1;\n',
  'pipeline/readers/uses-test-support.ts': "import { zips } from '../testing/zips.js';\nexport const u = zips;\n",
  'pipeline/readers/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
  'pipeline/readers/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
  'web/src/page.ts':
    "import type { NotFoundError } from '../../server/errors.js';\nimport { route } from '../../server/http/route.js';\nexport type E = NotFoundError;\nexport const z = route;\n",
};

function cruise() {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  copyFileSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const bin = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const r = spawnSync(
    process.execPath,
    [bin, 'rules', 'pipeline', 'server', 'web/src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  return JSON.parse(r.stdout) as { summary: { violations: Array<{ from: string; to: string; rule: { name: string } }> } };
}

describe('import layering', () => {
  it('names each import that points up a layer, and only those', () => {
    // a package is named by its folder (the probe reaches node_modules through a link)
    const found = cruise()
      .summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*node_modules\/([^/]+)\/.*$/, '$1')}`)
      .sort();
    expect(found).toEqual([
      'browser-imports-only-types-from-the-server: web/src/page.ts -> server/http/route.ts',
      'domain-without-frameworks: server/services/funds/bad.ts -> h3',
      'files-and-reference-data-below-funds: server/services/files/f.ts -> server/services/funds/good.ts',
      'no-circles: pipeline/readers/a.ts -> pipeline/readers/b.ts',
      'pipeline-stays-pure: pipeline/checks/nav.ts -> server/errors.ts',
      'query-and-cache-below-the-service-areas: server/services/cache/c.ts -> server/services/funds/good.ts',
      'queue-below-services: server/queue/q.ts -> server/services/funds/good.ts',
      'rules-import-only-rules: rules/bad.ts -> h3',
      'rules-import-only-rules: rules/bad.ts -> pipeline/readers/ok.ts',
      'rules-import-only-rules: rules/bad.ts -> server/http/route.ts',
      'services-below-http: server/services/funds/bad.ts -> server/http/route.ts',
      'services-below-jobs: server/services/funds/starts.ts -> server/jobs/stage.ts',
      'test-support-only-in-tests: pipeline/readers/uses-test-support.ts -> pipeline/testing/zips.ts',
    ]);
  });
});
