import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envName, loadConfig } from './config.js';

const dir = () => mkdtempSync(join(tmpdir(), 'fa-config-'));

describe('configuration', () => {
  it('uses defaults: port 8080 on 127.0.0.1, 200 MB uploads, 10,000,000-byte identification limit', () => {
    const c = loadConfig({ dataDir: dir(), env: {} });
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.maxUploadBytes).toBe(200 * 1024 * 1024);
    expect(c.identificationLimitBytes).toBe(10_000_000);
    expect(c.downloadTokenTtlMs).toBe(50_000);
  });

  it('applies config file < environment < command line', () => {
    const d = dir();
    writeFileSync(join(d, 'config.json'), JSON.stringify({ port: 9001, demo: true, aggregation: true }));
    const c = loadConfig({ dataDir: d, env: { FUND_AUDIT_PORT: '9002', FUND_AUDIT_AGGREGATION: 'false' }, flags: { port: 9003 } });
    expect(c.port).toBe(9003);
    expect(c.demo).toBe(true);
    expect(c.aggregation).toBe(false);
  });

  it('names environment variables in upper snake case', () => {
    expect(envName('devToolsEnabled')).toBe('FUND_AUDIT_DEV_TOOLS_ENABLED');
    expect(envName('allowQAValidation')).toBe('FUND_AUDIT_ALLOW_QAVALIDATION');
    const c = loadConfig({ dataDir: dir(), env: { FUND_AUDIT_DEV_TOOLS_ENABLED: 'yes' } });
    expect(c.devToolsEnabled).toBe(true);
  });

  it('rejects a bad value naming the variable and what it got', () => {
    expect(() => loadConfig({ dataDir: dir(), env: { FUND_AUDIT_PORT: 'eighty' } })).toThrow(/FUND_AUDIT_PORT.*eighty/);
    expect(() => loadConfig({ dataDir: dir(), env: {}, flags: { port: 70000 } })).toThrow(/port \(command line\)/);
  });

  it('rejects unknown settings and broken JSON in the config file', () => {
    const d = dir();
    writeFileSync(join(d, 'config.json'), JSON.stringify({ prot: 1 }));
    expect(() => loadConfig({ dataDir: d, env: {} })).toThrow(/unknown setting\(s\) prot/);
    writeFileSync(join(d, 'config.json'), '{ nope');
    expect(() => loadConfig({ dataDir: d, env: {} })).toThrow(ConfigError);
  });
});

describe('docs/configuration.md', () => {
  it('documents every setting', async () => {
    const { readFileSync } = await import('node:fs');
    const { appRoot } = await import('./paths.js');
    const { configSchema } = await import('./config.js');
    const doc = readFileSync(join(appRoot(), 'docs/configuration.md'), 'utf8');
    for (const key of Object.keys(configSchema.shape)) expect(doc, key).toContain(`\`${key}\``);
  });
});
