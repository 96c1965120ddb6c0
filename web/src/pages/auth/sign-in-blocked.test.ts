import { describe, expect, it } from 'vitest';
import { readBlockedQuery, signInBlockedPath, waitText } from './sign-in-blocked';

describe('blocked sign-in page', () => {
  it('counts the wait from Retry-After until it fixes the time in the address', () => {
    expect(readBlockedQuery('?retryAfter=45&via=sso', 1_000)).toEqual({ until: 46_000, via: 'sso', fixed: false });
    expect(readBlockedQuery('?until=90000&via=login', 1_000)).toEqual({ until: 90_000, via: 'login', fixed: true });
    expect(readBlockedQuery('', 0)).toEqual({ until: 60_000, via: 'link', fixed: false });
    expect(signInBlockedPath(12.2, 'link')).toBe('/sign-in-blocked?retryAfter=13&via=link');
  });

  it('says how long is left, then nothing once the time has come', () => {
    expect(waitText(46_000, 1_000)).toBe('in 45 seconds');
    expect(waitText(126_000, 0)).toBe('in 2 minutes 6 seconds');
    expect(waitText(61_000, 1_000)).toBe('in 1 minute');
    expect(waitText(1_000, 1_000)).toBeNull();
  });
});
