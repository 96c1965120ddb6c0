/**
 * /redeemToken/#<token>: redeems the one-time token for a session token, then goes to /login; a
 * rejected token leaves to the external sign-in (the identity provider, when single sign-on is on)
 * or to /unauthorized. A redeem refused by the rate limits (429) goes to the page saying why and
 * when to try again, which keeps the link (its token was not used) for that time.
 */
import { withBase, withoutBase } from '../../api/base-path';
import { useEffect } from 'react';
import { redeemToken, ssoProviders } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { AuthLayout } from '../../components/auth-layout';
import { PageLoading } from '../../components/page-loading';
import { usePageTitle } from '../../components/use-page-title';
import { navigate } from '../../state/navigation';
import { clearSession, setToken } from '../../state/session';
import { readSession, writeSession } from '../../state/storage';
import { BLOCKED_LINK_KEY, signInBlockedPath } from './sign-in-blocked';
import { tokenFromRedeemUrl } from './sign-in-token';

// One redeem per one-time token, even if the effect runs twice.
const redeemed = new Map<string, Promise<void>>();

function redeemOnce(token: string): Promise<void> {
  let p = redeemed.get(token);
  if (!p) {
    p = redeemToken(token).then((payload) => {
      clearSession();
      setToken(payload.token);
    });
    redeemed.set(token, p);
  }
  return p;
}

/** Set while a rejected link sent this tab to the identity provider, so a second rejection stops on /unauthorized. */
const SSO_RETRY_KEY = 'fa.ssoRetry';

/** A rejected link leaves to the external sign-in (the identity provider) when there is one, once; else /unauthorized. */
async function leaveAfterRejection(): Promise<void> {
  const sso = await ssoProviders().then(
    (p) => p.oidc,
    () => false,
  );
  if (sso && !readSession(SSO_RETRY_KEY)) {
    writeSession(SSO_RETRY_KEY, '1');
    window.location.assign(withBase('/api/sso/authorize'));
    return;
  }
  writeSession(SSO_RETRY_KEY, null);
  navigate('/unauthorized', { replace: true });
}

export function RedeemPage() {
  usePageTitle('Sign in');
  useEffect(() => {
    const token = tokenFromRedeemUrl(window.location.hash, withoutBase(window.location.pathname));
    if (!token) {
      navigate('/unauthorized', { replace: true });
      return;
    }
    redeemOnce(token).then(
      () => {
        writeSession(SSO_RETRY_KEY, null);
        navigate('/login', { replace: true });
      },
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 429) {
          writeSession(BLOCKED_LINK_KEY, window.location.href);
          navigate(signInBlockedPath(err.retryAfterSeconds, 'link'), { replace: true });
          return;
        }
        void leaveAfterRejection();
      },
    );
  }, []);
  return (
    <AuthLayout>
      <PageLoading text="Processing sign in..." />
    </AuthLayout>
  );
}
