import { describe, expect, it } from 'vitest';
import { tokenFromRedeemUrl } from './sign-in-token';

describe('tokenFromRedeemUrl', () => {
  it('reads the token from the hash', () => {
    expect(tokenFromRedeemUrl('#abc.def', '/redeemToken/')).toBe('abc.def');
    expect(tokenFromRedeemUrl('#token=xyz', '/redeemToken/')).toBe('xyz');
    expect(tokenFromRedeemUrl('#a%2Bb', '/redeemToken/')).toBe('a+b');
  });
  it('falls back to the path segment', () => {
    expect(tokenFromRedeemUrl('', '/redeemToken/tok')).toBe('tok');
  });
  it('is null without a token', () => {
    expect(tokenFromRedeemUrl('', '/redeemToken/')).toBeNull();
    expect(tokenFromRedeemUrl('#', '/redeemToken')).toBeNull();
    expect(tokenFromRedeemUrl('#%E0%A4%A', '/redeemToken/')).toBeNull();
  });
});
