import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../paths.js';
import { buildOpenApi } from './openapi.js';
import { fullPath } from './route.js';
import { allRoutes } from './routes/index.js';

describe('OpenAPI document', () => {
  it('docs/openapi.json matches the mounted routes (regenerate with `fund-audit openapi > docs/openapi.json`)', () => {
    const committed = JSON.parse(readFileSync(join(appRoot(), 'docs/openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });

  it('documents every route with its method', () => {
    const doc = buildOpenApi() as { paths: Record<string, Record<string, unknown>> };
    for (const r of allRoutes) expect(doc.paths[fullPath(r).replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()], `${r.method} ${fullPath(r)}`).toBeDefined();
  });
});
