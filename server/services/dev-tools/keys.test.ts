import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { createTestContext, type TestContext, errorOf } from '../../testing/context.js';
import { verifyToken } from '../auth/tokens.js';
import { getNrd } from '../reference-data/reference-data.js';
import { generateServiceKey, generateUserKey, impersonate, serviceEmail } from './keys.js';

describeEachDialect('keys', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false, devToolsEnabled: true, devToolsLocal: true });
  });
  afterEach(() => ctx.dispose());

  describe('service keys', () => {
    it('creates the service user on first use and hands out a working 10-year API key', async () => {
      const key = await generateServiceKey(ctx, ctx.boot.admin, 'sweeper');
      expect(key).toMatchObject({ service: 'sweeper', email: serviceEmail('sweeper'), role: 'DeliveryTeamMember', revoked: 0 });
      const { user } = await verifyToken(ctx, key.token, ['api']);
      expect(user.email).toBe('sweeper@service.fund-audit.local');
      const years = (Date.parse(key.expiresAt) - Date.now()) / (365 * 24 * 3_600_000);
      expect(years).toBeGreaterThan(9.9);
      // not a person to assign files to or to send reports to
      expect((await getNrd(ctx)).users.map((u) => u.alt_code)).toEqual(['Fund Audit Administrator']);
    });

    it('revokes the earlier key of the same service when a new one is generated, not the keys of other services', async () => {
      const first = await generateServiceKey(ctx, ctx.boot.admin, 'worker');
      const canvas = await generateServiceKey(ctx, ctx.boot.admin, 'canvas');
      const second = await generateServiceKey(ctx, ctx.boot.admin, 'worker');
      expect(second.userId).toBe(first.userId);
      expect(second.revoked).toBe(1);
      expect((await errorOf(() => verifyToken(ctx, first.token, ['api']))).message).toBe('The token was revoked');
      expect((await verifyToken(ctx, second.token, ['api'])).user.id).toBe(first.userId);
      expect((await verifyToken(ctx, canvas.token, ['api'])).user.email).toBe('canvas@service.fund-audit.local');
    });

    it('makes the system test user an Admin and refuses an unknown service', async () => {
      expect((await generateServiceKey(ctx, ctx.boot.admin, 'system')).role).toBe('Admin');
      const err = await errorOf(() => generateServiceKey(ctx, ctx.boot.admin, 'mailer'));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.message).toMatch(/Unknown service 'mailer'; keys exist for sweeper, canvas, worker, test-runner, system/);
    });
  });

  describe('user keys and impersonation', () => {
    it('gives a user an API key and says which user id is unknown', async () => {
      const key = await generateUserKey(ctx, ctx.boot.admin, ctx.boot.admin.id);
      expect((await verifyToken(ctx, key.token, ['api'])).user.id).toBe(ctx.boot.admin.id);
      const err = await errorOf(() => generateUserKey(ctx, ctx.boot.admin, 999));
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.message).toBe('No user with id: 999');
    });

    it('refuses impersonation while impersonateEnabled is off', async () => {
      const err = await errorOf(() => impersonate(ctx, ctx.boot.admin, ctx.boot.admin.id, '10h'));
      expect(err).toBeInstanceOf(ConflictError);
      expect(err.message).toMatch(/impersonateEnabled/);
    });

    it('issues a 10-hour session of the impersonated user when on, and only for 10h', async () => {
      const on = await createTestContext({ dialect, seedDemoData: false, impersonateEnabled: true });
      try {
        const session = await impersonate(on, on.boot.admin, on.boot.admin.id, '10h');
        expect((await verifyToken(on, session.token, ['session'])).user.id).toBe(on.boot.admin.id);
        const hours = (Date.parse(session.expiresAt) - Date.now()) / 3_600_000;
        expect(hours).toBeGreaterThan(9.9);
        expect(hours).toBeLessThanOrEqual(10);
        expect((await errorOf(() => impersonate(on, on.boot.admin, on.boot.admin.id, '24h'))).message).toMatch(/use '10h' \(got '24h'\)/);
      } finally {
        await (on.dispose() as unknown as Promise<void>);
      }
    });
  });
});
