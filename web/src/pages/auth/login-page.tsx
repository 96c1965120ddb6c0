/**
 * /login: negotiates the session ('Negotiating sign in...'), shows the privacy notice when the
 * accepted version differs from the server's, then continues to the remembered route or '/'. A
 * negotiation refused by the rate limits goes to the page saying why and when to try again.
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../api/errors';
import { AuthLayout } from '../../components/auth-layout';
import { PageLoading } from '../../components/page-loading';
import { PrivacyNotice } from '../../components/privacy-notice';
import { usePageTitle } from '../../components/use-page-title';
import { signInBlockedPath } from './sign-in-blocked';
import { navigate, routeAfterSignIn } from '../../state/navigation';
import { privacyPending, session } from '../../state/session';
import { acceptPrivacyNotice, negotiateSession } from '../../state/session-actions';

function continueAfterSignIn(): void {
  navigate(routeAfterSignIn(), { replace: true });
}

export function LoginPage() {
  usePageTitle('Sign in');
  const snap = useSnapshot(session);
  const [accepting, setAccepting] = useState(false);

  useEffect(() => {
    if (!session.token) {
      navigate('/authenticate', { replace: true });
      return;
    }
    negotiateSession().then(
      () => {
        if (!privacyPending(session)) continueAfterSignIn();
      },
      (err: unknown) => {
        // 401 and 403 are redirected by the API client; any other refusal means sign-in was rejected.
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return;
        if (err instanceof ApiError && err.status === 429) {
          navigate(signInBlockedPath(err.retryAfterSeconds, 'login'), { replace: true });
          return;
        }
        navigate('/unauthorized', { replace: true });
      },
    );
  }, []);

  const accept = async () => {
    setAccepting(true);
    try {
      await acceptPrivacyNotice();
      if (!privacyPending(session)) continueAfterSignIn();
    } catch {
      // shown by the default error handling; the notice stays open
    } finally {
      setAccepting(false);
    }
  };

  const showNotice = snap.status === 'fulfilled' && privacyPending(snap);
  return (
    <AuthLayout>
      <PageLoading text="Negotiating sign in..." />
      {showNotice && <PrivacyNotice busy={accepting} onAccept={() => void accept()} onReject={() => navigate('/unauthorized', { replace: true })} />}
    </AuthLayout>
  );
}
