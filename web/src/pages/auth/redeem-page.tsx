/** /redeemToken/#<token>: redeems the one-time token for a session token, then goes to /login. */
import { useEffect } from 'react';
import { redeemToken } from '../../api/endpoints';
import { AuthLayout } from '../../components/auth-layout';
import { PageLoading } from '../../components/page-loading';
import { usePageTitle } from '../../components/use-page-title';
import { navigate } from '../../state/navigation';
import { clearSession, setToken } from '../../state/session';
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

export function RedeemPage() {
  usePageTitle('Sign in');
  useEffect(() => {
    const token = tokenFromRedeemUrl(window.location.hash, window.location.pathname);
    if (!token) {
      navigate('/unauthorized', { replace: true });
      return;
    }
    redeemOnce(token).then(
      () => navigate('/login', { replace: true }),
      () => navigate('/unauthorized', { replace: true }),
    );
  }, []);
  return (
    <AuthLayout>
      <PageLoading text="Processing sign in..." />
    </AuthLayout>
  );
}
