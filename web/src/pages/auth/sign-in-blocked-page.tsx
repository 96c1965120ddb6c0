/**
 * /sign-in-blocked: a sign-in refused by the rate limits (too many attempts from this network
 * address). Says why, when the user may try again (the server's Retry-After, counted down), and
 * offers the way back once the time has come: single sign-on again, the same one-time link (its
 * token was not used), or the session negotiation.
 */
import { format } from 'date-fns';
import { Button } from 'primereact/button';
import { useEffect, useState } from 'react';
import { withBase } from '../../api/base-path';
import { AuthLayout } from '../../components/auth-layout';
import { usePageTitle } from '../../components/use-page-title';
import { navigate } from '../../state/navigation';
import { readSession, writeSession } from '../../state/storage';
import { BLOCKED_LINK_KEY, readBlockedQuery, SIGN_IN_BLOCKED_PATH, waitText } from './sign-in-blocked';

export function SignInBlockedPage() {
  usePageTitle('Sign-in paused');
  const [{ until, via }] = useState(() => {
    const q = readBlockedQuery(window.location.search, Date.now());
    // fix the time in the address, so a reload keeps counting down from the same moment
    if (!q.fixed) navigate(`${SIGN_IN_BLOCKED_PATH}?until=${q.until}&via=${q.via}`, { replace: true });
    return q;
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const wait = waitText(until, now);
  const link = via === 'link' ? readSession(BLOCKED_LINK_KEY) : null;

  const tryAgain = () => {
    if (via === 'sso') window.location.assign(withBase('/api/sso/authorize'));
    else if (via === 'login') navigate('/login', { replace: true });
    else if (link) {
      writeSession(BLOCKED_LINK_KEY, null);
      window.location.assign(link);
    }
  };
  const canRetry = via !== 'link' || link !== null;

  return (
    <AuthLayout>
      <h1>Sign-in paused</h1>
      <p data-testid="sign-in-blocked-why">
        Too many sign-in attempts came from your network address in a short time, so Fund Audit is refusing sign-ins from it for a while. This protects accounts
        against guessed sign-in links and tokens.
      </p>
      <p role="status" aria-live="polite" data-testid="sign-in-blocked-when">
        {wait ? (
          <>
            Try again at <strong>{format(until, 'HH:mm:ss')}</strong> ({wait}).
          </>
        ) : (
          'You can try again now.'
        )}
      </p>
      {via === 'link' && <p>Your sign-in link was not used: it still works until it expires.</p>}
      {canRetry ? (
        <p>
          <Button
            type="button"
            label={via === 'sso' ? 'Sign in again' : via === 'link' ? 'Open my sign-in link again' : 'Try again'}
            disabled={wait !== null}
            onClick={tryAgain}
          />
        </p>
      ) : (
        <p>Open your sign-in link again after that time.</p>
      )}
    </AuthLayout>
  );
}
