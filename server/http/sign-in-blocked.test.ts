/**
 * A rate-limited sign-in the browser navigated to (single sign-on's start and the identity
 * provider's redirect back) lands on the page saying why and when to try again, with the limit's
 * Retry-After; the one-time link's redeem call, fetched by the page, keeps its JSON 429.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../config.js';
import { signinLink } from '../services/auth/session.js';
import { apiClient, createTestContext, type TestContext } from '../testing/context.js';

const contexts: TestContext[] = [];
async function serverWith(overrides: Partial<AppConfig>) {
  const ctx = await createTestContext({ seedDemoData: false, ...overrides });
  contexts.push(ctx);
  return { ctx, api: apiClient(ctx) };
}
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.dispose();
});

describe('a blocked sign-in', () => {
  it('sends the browser from single sign-on to the page explaining the block, with when to try again', async () => {
    const { api } = await serverWith({ rateLimitSignInPerMinute: 1, basePath: '/fund-audit' });
    expect((await api.call('GET', '/api/sso/authorize')).status).toBe(302);
    for (const path of ['/api/sso/authorize', '/api/sso/callback?code=x&state=y']) {
      const refused = await api.call('GET', path);
      expect(refused.status, path).toBe(302);
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(refused.headers.get('location')).toBe(`/fund-audit/sign-in-blocked?retryAfter=${wait}&via=sso`);
      expect(refused.body).toEqual({ raw: '' });
    }
  });

  it('leaves the one-time link redeem call a 429 with Retry-After for the page that fetched it', async () => {
    const { ctx, api } = await serverWith({ rateLimitSignInPerMinute: 1 });
    const token = async () => (await signinLink(ctx, ctx.boot.admin, 'http://x')).url.split('#')[1];
    expect((await api.post('/api/sso/redeemToken', { token: await token() })).status).toBe(200);
    const refused = await api.post('/api/sso/redeemToken', { token: await token() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.errors[0]).toMatch(/^Too many sign-in attempts/);
  });
});
