import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { ValidationError } from '../../errors.js';
import { appVersion } from '../../paths.js';
import { createTestContext, type TestContext, errorOf } from '../../testing/context.js';
import { currentBranch, updateBranch } from './branches.js';
import { configSourceList, iomConfig } from './config-info.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

describe('configurations and testing branches', () => {
  it('report the installed version, never behind, with a digest of the shipped files', () => {
    const conf = currentBranch(ctx, 'configurations');
    expect(conf).toMatchObject({ kind: 'configurations', branch: `installed-${appVersion()}`, behind: 0, source: 'fixtures/tpas', updateEnabled: false });
    expect(conf.latestCommit.id).toMatch(/^[0-9a-f]{12}$/);
    expect(conf.latestCommit.files).toBeGreaterThan(10);
    const testing = currentBranch(ctx, 'testing');
    expect(testing.source).toBe('fixtures/test-suites');
    expect(testing.latestCommit.id).not.toBe(conf.latestCommit.id);
  });

  it('refuse updates with a validation error while the switches are off', () => {
    const err = errorOf<ValidationError>(() => updateBranch(ctx, 'configurations', `installed-${appVersion()}`));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('Configuration branch update failed');
    expect(err.errors).toEqual(['Branch updates are disabled on this server (setting branchUpdateEnabled)']);
    expect(errorOf<ValidationError>(() => updateBranch(ctx, 'testing', 'develop')).errors).toEqual([
      'Branch changes are disabled on this server (setting branchChangeEnabled)',
    ]);
  });

  it('answer an update of the installed branch as up to date and refuse any other branch, saying why', async () => {
    const on = await createTestContext({ seedDemoData: false, branchUpdateEnabled: true, branchChangeEnabled: true });
    try {
      expect(updateBranch(on, 'testing', `installed-${appVersion()}`).message).toBe(`Testing branch installed-${appVersion()} is up to date`);
      const err = errorOf<ValidationError>(() => updateBranch(on, 'configurations', 'develop'));
      expect(err.message).toBe('Configuration branch update failed');
      expect(err.errors[0]).toBe(`There is no branch 'develop': this installation only has installed-${appVersion()}`);
    } finally {
      await on.dispose();
    }
  });
});

describe('configuration sources and the input/output model', () => {
  it('name where each setting came from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fund-audit-config-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ port: 9000, demo: false }));
    const config = loadConfig({ dataDir: dir, env: { FUND_AUDIT_DEMO: 'true' }, flags: { logLevel: 'warn' } });
    const other = await createTestContext({ seedDemoData: false });
    try {
      const sources = configSourceList({ ...other, config } as TestContext);
      const of = (key: string) => sources.settings.find((s) => s.key === key);
      expect(of('port')).toEqual({ key: 'port', source: 'config file', env: 'FUND_AUDIT_PORT' });
      expect(of('demo')?.source).toBe('environment');
      expect(of('logLevel')?.source).toBe('command line');
      expect(of('host')?.source).toBe('default');
      expect(sources.file).toBe(join(dir, 'config.json'));
    } finally {
      await other.dispose();
    }
  });

  it('lists the stages, the SDM inputs with their required columns and the export kinds', () => {
    const iom = iomConfig(ctx);
    expect(iom.stages.slice(0, 6)).toEqual(['import', 'identification', 'standardization', 'calculations', 'visualization', 'export']);
    const tb = iom.inputs.find((i) => i.type === 'trial_balance')!;
    expect(tb.columns.filter((c) => c.required).map((c) => c.name)).toEqual(['fund_code', 'as_of', 'account_code', 'balance_base']);
    expect(iom.outputs).toContain('pbi_inputs');
    expect(iom.limits.identificationLimitBytes).toBe(10_000_000);
  });
});
