import { describe, expect, it } from 'vitest';
import type { SessionConfig } from '../api/types';
import { auditorTabs, canSwitchToAuditor, canSwitchToDelivery, featureLines, siderEntries } from './view';

const base: SessionConfig = {
  mode: 'development',
  devTools: { enabled: false, isLocalEnvironment: false },
  mappings: false,
  testRunner: false,
  demo: false,
  aggregation: false,
  sdmUpload: false,
  customMappings: false,
  pbiInputs: false,
  allowQAValidation: false,
  investmentAnalyzerEnabled: false,
  newStatusDesign: false,
  privacyStatementVersion: '1',
  dependencies: [],
  deleteLuxData: false,
  identificationProcess: true,
  branchChangeEnabled: false,
  branchUpdateEnabled: false,
  impersonateEnabled: false,
  isDbPushEnabled: false,
  dbName: 'fund-audit.sqlite',
  maxUploadBytes: 209_715_200,
  supportEmail: null,
  samplingWizardUrl: null,
};

describe('siderEntries', () => {
  it('shows the ungated entries only when nothing is enabled', () => {
    expect(siderEntries(base, 'Admin').map((e) => e.label)).toEqual([
      'Dashboard',
      'Bulk upload',
      'Input Files',
      'Import files',
      'Export files',
      'Contacts',
      'Scorecards',
    ]);
  });
  it('shows every entry in spec order when everything is enabled', () => {
    const all = { ...base, devTools: { enabled: true, isLocalEnvironment: true }, testRunner: true, pbiInputs: true, mappings: true };
    expect(siderEntries(all, 'Admin').map((e) => e.label)).toEqual([
      'Dashboard',
      'Bulk upload',
      'Settings',
      'Key generator',
      'Input Files',
      'Test Runner',
      'Import files',
      'Export files',
      'PowerBI Inputs',
      'Live mappings',
      'Contacts',
      'Scorecards',
    ]);
  });
  it('needs a local environment for the key generator', () => {
    const dev = { ...base, devTools: { enabled: true, isLocalEnvironment: false } };
    expect(siderEntries(dev, 'Admin').map((e) => e.label)).toContain('Settings');
    expect(siderEntries(dev, 'Admin').map((e) => e.label)).not.toContain('Key generator');
  });
  it('shows the test runner to a delivery team member only while developer tools are enabled', () => {
    const runner = { ...base, testRunner: true };
    expect(siderEntries(runner, 'Admin').map((e) => e.label)).toContain('Test Runner');
    expect(siderEntries(runner, 'DeliveryTeamMember').map((e) => e.label)).not.toContain('Test Runner');
    const dev = { ...runner, devTools: { enabled: true, isLocalEnvironment: false } };
    expect(siderEntries(dev, 'DeliveryTeamMember').map((e) => e.label)).toContain('Test Runner');
  });
});

describe('auditorTabs', () => {
  it("shows a Client only the tabs it can open, and the 'Open chases' tab the chase mails link to", () => {
    expect(auditorTabs('Client').map((t) => [t.label, t.to])).toEqual([
      ['Home', '/'],
      ['WAM Wiki', '/wiki'],
      ['Scorecards', '/scorecards'],
      ['Open chases', '/chases'],
    ]);
    for (const role of ['Auditor', 'Root', 'Admin'])
      expect(auditorTabs(role).map((t) => t.label)).toEqual(['Home', 'Data Platform', 'WAM Tools', 'WAM Wiki', 'Scorecards']);
  });
});

describe('canSwitchToDelivery', () => {
  it('hides the switch for original Root, Auditor or Client and in demo mode', () => {
    expect(canSwitchToDelivery({ originalRole: 'Admin' }, { demo: false })).toBe(true);
    expect(canSwitchToDelivery({ originalRole: 'DeliveryTeamMember' }, { demo: false })).toBe(true);
    expect(canSwitchToDelivery({ originalRole: 'Root' }, { demo: false })).toBe(false);
    expect(canSwitchToDelivery({ originalRole: 'Auditor' }, { demo: false })).toBe(false);
    expect(canSwitchToDelivery({ originalRole: 'Client' }, { demo: false })).toBe(false);
    expect(canSwitchToDelivery({ originalRole: 'Admin' }, { demo: true })).toBe(false);
  });
});

describe('canSwitchToAuditor', () => {
  it('is hidden in demo mode only', () => {
    expect(canSwitchToAuditor({ demo: false })).toBe(true);
    expect(canSwitchToAuditor({ demo: true })).toBe(false);
  });
});

describe('featureLines', () => {
  it('lists mode, flags and versions', () => {
    const lines = featureLines({ ...base, demo: true, deleteLuxData: false, dependencies: [{ name: 'api', version: '1.15.223' }] });
    expect(lines.map((l) => `${l.label}=${l.value}`)).toEqual([
      'Mode=development',
      'DevTools=disabled',
      'Live mappings=disabled',
      'Test runner=disabled',
      'Demo=enabled',
      'Aggregation=disabled',
      'Self-Onboarding=disabled',
      'Custom Mapping=disabled',
      'Delete Lux Data=disabled',
      'api=1.15.223',
    ]);
  });
  it('omits Delete Lux Data when the server does not send it (an older server)', () => {
    const { deleteLuxData: _, ...older } = base;
    expect(featureLines(older as SessionConfig).map((l) => l.label)).not.toContain('Delete Lux Data');
  });
});
