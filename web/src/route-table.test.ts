import { describe, expect, it } from 'vitest';
import type { SessionConfig } from './api/types';
import {
  decideAccess,
  frameForRole,
  isPublicPath,
  matchPattern,
  matchProtectedRoute,
  needsPrivacyAcceptance,
  PROTECTED_ROUTES,
  resolvePage,
  shouldRememberRoute,
  type AccessInput,
} from './route-table';

const config = (over: Partial<SessionConfig> = {}): SessionConfig => ({
  mode: 'development',
  devTools: { enabled: false, isLocalEnvironment: false },
  mappings: true,
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
  ...over,
});

const signedIn = (path: string, role = 'Admin', cfg = config()): AccessInput => ({
  path,
  hasToken: true,
  sessionReady: true,
  role,
  config: cfg,
});

describe('decideAccess', () => {
  it.each([
    ['unknown path', { path: '/nowhere', hasToken: true, sessionReady: true, config: config() }, '/404'],
    ['no token', { path: '/import', hasToken: false, sessionReady: false }, '/authenticate'],
    ['token but no session', { path: '/import', hasToken: true, sessionReady: false }, '/login'],
    ['session without config', { path: '/import', hasToken: true, sessionReady: true, config: null }, '/login'],
  ] as Array<[string, AccessInput, string]>)('%s -> redirect', (_name, input, to) => {
    const d = decideAccess(input);
    expect(d).toMatchObject({ kind: 'redirect', to });
  });

  it('remembers the route when sending to sign-in, not when sending to /404', () => {
    expect(decideAccess({ path: '/export', hasToken: false, sessionReady: false })).toMatchObject({ remember: true });
    expect(decideAccess({ path: '/x/y', hasToken: true, sessionReady: true, config: config() })).toMatchObject({ remember: false });
  });

  it.each([
    ['/dev-tools', config(), '/404'],
    ['/dev-tools', config({ devTools: { enabled: true, isLocalEnvironment: false } }), null],
    ['/api-key-generator', config({ devTools: { enabled: true, isLocalEnvironment: false } }), '/404'],
    ['/api-key-generator', config({ devTools: { enabled: true, isLocalEnvironment: true } }), null],
    ['/test-runner', config(), '/404'],
    ['/test-runner', config({ testRunner: true }), null],
    ['/pbi-inputs', config(), '/404'],
    ['/pbi-inputs', config({ pbiInputs: true }), null],
  ] as Array<[string, SessionConfig, string | null]>)('gate %s', (path, cfg, to) => {
    const d = decideAccess(signedIn(path, 'Admin', cfg));
    if (to) expect(d).toMatchObject({ kind: 'redirect', to });
    else expect(d.kind).toBe('render');
  });

  it('opens the test runner to a delivery team member only while developer tools are enabled', () => {
    expect(decideAccess(signedIn('/test-runner', 'DeliveryTeamMember', config({ testRunner: true })))).toMatchObject({ kind: 'redirect', to: '/404' });
    const dev = config({ testRunner: true, devTools: { enabled: true, isLocalEnvironment: false } });
    expect(decideAccess(signedIn('/test-runner', 'DeliveryTeamMember', dev))).toMatchObject({ kind: 'render', page: 'test-runner' });
  });

  it('renders the dashboard at / for delivery roles and the auditor home for auditor roles', () => {
    expect(decideAccess(signedIn('/', 'Admin'))).toMatchObject({ kind: 'render', page: 'dashboard' });
    expect(decideAccess(signedIn('/', 'DeliveryTeamMember'))).toMatchObject({ kind: 'render', page: 'dashboard' });
    for (const role of ['Root', 'Auditor', 'Client']) {
      expect(decideAccess(signedIn('/', role))).toMatchObject({ kind: 'render', page: 'auditor-home' });
    }
  });

  it('sends auditor-frame users away from delivery-only routes', () => {
    expect(decideAccess(signedIn('/import', 'Auditor'))).toMatchObject({ kind: 'redirect', to: '/' });
    expect(decideAccess(signedIn('/data-platform', 'Auditor'))).toMatchObject({ kind: 'render', page: 'data-platform' });
  });

  it('sends a Client from the auditor pages whose calls it is refused to the home page', () => {
    for (const path of ['/data-platform', '/tools']) expect(decideAccess(signedIn(path, 'Client')), path).toMatchObject({ kind: 'redirect', to: '/' });
    expect(decideAccess(signedIn('/wiki', 'Client'))).toMatchObject({ kind: 'render', page: 'wiki' });
    expect(decideAccess(signedIn('/', 'Client'))).toMatchObject({ kind: 'render', page: 'auditor-home' });
  });

  it('passes the fund id', () => {
    expect(decideAccess(signedIn('/fund/42'))).toMatchObject({ kind: 'render', page: 'fund-details', params: { id: '42' } });
    expect(decideAccess(signedIn('/fund/create'))).toMatchObject({ kind: 'render', page: 'fund-details', params: {} });
  });
});

describe('route matching', () => {
  it('matches params and trailing slashes', () => {
    expect(matchPattern('/fund/:id', '/fund/7/')).toEqual({ id: '7' });
    expect(matchPattern('/fund/:id', '/fund')).toBeNull();
    expect(matchPattern('/', '/')).toEqual({});
    expect(matchPattern('/import', '/import?x=1')).toEqual({});
  });

  it('knows every route of the spec table', () => {
    for (const p of [
      '/',
      '/funds/list',
      '/fund/create',
      '/fund/1',
      '/funds/upload',
      '/data-platform',
      '/tools',
      '/wiki',
      '/dev-tools',
      '/api-key-generator',
      '/file-list',
      '/test-runner',
      '/import',
      '/export',
      '/pbi-inputs',
      '/mappings',
    ]) {
      expect(matchProtectedRoute(p), p).not.toBeNull();
    }
    expect(PROTECTED_ROUTES.length).toBeGreaterThanOrEqual(16);
  });

  it('treats the sign-in pages as public', () => {
    for (const p of ['/login', '/authenticate', '/unauthorized', '/signup', '/404', '/redeemToken/', '/redeemToken/abc']) {
      expect(isPublicPath(p), p).toBe(true);
    }
    expect(isPublicPath('/import')).toBe(false);
  });
});

describe('remembered route', () => {
  it('remembers protected routes only', () => {
    expect(shouldRememberRoute('/export')).toBe(true);
    expect(shouldRememberRoute('/fund/3')).toBe(true);
    for (const p of ['/unauthorized', '/login', '/authenticate', '/signup', '/404', '/redeemToken/', '/bogus']) {
      expect(shouldRememberRoute(p), p).toBe(false);
    }
  });
});

describe('chasing routes', () => {
  it("opens a chase mail's link for a signed-in Client, and remembers it with its fund for after sign-in", () => {
    const input = { path: '/chases', hasToken: true, sessionReady: true, role: 'Client', config: config() };
    expect(decideAccess(input)).toMatchObject({ kind: 'render', page: 'chases' });
    expect(decideAccess({ ...input, hasToken: false })).toEqual({ kind: 'redirect', to: '/authenticate', remember: true });
    expect(shouldRememberRoute('/chases')).toBe(true);
  });

  it('keeps the contacts screen for the delivery team', () => {
    const input = { path: '/contacts', hasToken: true, sessionReady: true, config: config() };
    expect(decideAccess({ ...input, role: 'DeliveryTeamMember' })).toMatchObject({ kind: 'render', page: 'contacts' });
    expect(decideAccess({ ...input, role: 'Client' })).toEqual({ kind: 'redirect', to: '/', remember: false });
  });
});

describe('frames and pages by role', () => {
  it('maps roles to frames with delivery as the default', () => {
    expect(frameForRole('Root')).toBe('auditor');
    expect(frameForRole('Auditor')).toBe('auditor');
    expect(frameForRole('Client')).toBe('auditor');
    expect(frameForRole('Admin')).toBe('delivery');
    expect(frameForRole('DeliveryTeamMember')).toBe('delivery');
    expect(frameForRole('Something')).toBe('delivery');
    expect(frameForRole(undefined)).toBe('delivery');
  });

  it('shows the listing to delivery team members on auditor pages', () => {
    const dp = matchProtectedRoute('/data-platform')!.route;
    expect(resolvePage(dp, 'DeliveryTeamMember')).toBe('dashboard');
    expect(resolvePage(dp, 'Admin')).toBe('data-platform');
  });
});

describe('privacy version check', () => {
  it('compares versions as text', () => {
    expect(needsPrivacyAcceptance('1', 1)).toBe(false);
    expect(needsPrivacyAcceptance(null, '1')).toBe(true);
    expect(needsPrivacyAcceptance('1', '2')).toBe(true);
    expect(needsPrivacyAcceptance(null, null)).toBe(false);
  });
});
