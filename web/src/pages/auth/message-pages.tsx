/** Message pages of the sign-in flow: /authenticate, /unauthorized, /signup, /404. */
import { withBase } from '../../api/base-path';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { ssoProviders, supportContact } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { AuthLayout } from '../../components/auth-layout';
import { PageLoading } from '../../components/page-loading';
import { usePageTitle } from '../../components/use-page-title';
import { navigate } from '../../state/navigation';
import { session } from '../../state/session';
import { signInBlockedPath } from './sign-in-blocked';

/**
 * /authenticate: with a token continue to /login; with single sign-on go to the identity provider
 * (its session signs a new tab in without a link); otherwise explain the one-time sign-in link.
 */
export function AuthenticatePage() {
  usePageTitle('Sign in');
  const { token } = useSnapshot(session);
  const [method, setMethod] = useState<'asking' | 'sso' | 'link'>('asking');
  useEffect(() => {
    if (token) {
      navigate('/login', { replace: true });
      return;
    }
    ssoProviders().then(
      ({ oidc }) => {
        setMethod(oidc ? 'sso' : 'link');
        if (oidc) window.location.assign(withBase('/api/sso/authorize'));
      },
      (err: unknown) => {
        // a network address blocked by the rate limits: say why and when, instead of the link explanation
        if (err instanceof ApiError && err.status === 429) navigate(signInBlockedPath(err.retryAfterSeconds, 'sso'), { replace: true });
        else setMethod('link');
      },
    );
  }, [token]);
  if (method !== 'link')
    return (
      <AuthLayout>
        <PageLoading text="Negotiating sign in..." />
      </AuthLayout>
    );
  return (
    <AuthLayout>
      <h1>Sign in</h1>
      <p>Fund Audit signs you in with a one-time link printed by the server.</p>
      <p>
        Ask your administrator to run <code>fund-audit users link EMAIL</code> with your e-mail address, then open the link it prints in this browser.
      </p>
    </AuthLayout>
  );
}

/** /unauthorized: the spec's welcome line, linking to /authenticate. */
export function UnauthorizedPage() {
  usePageTitle('Unauthorized');
  return (
    <AuthLayout>
      <p className="fa-auth-message" data-testid="unauthorized-message">
        Welcome to WAMapps - <Link href="/authenticate">click here</Link> to begin your session.
      </p>
    </AuthLayout>
  );
}

/** /signup: no access, with the support contact's e-mail when the server has one (setting `supportEmail`). */
export function SignupPage() {
  usePageTitle('No access');
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    supportContact().then(
      (c) => live && setEmail(c.supportEmail),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <AuthLayout>
      <p className="fa-auth-message">You do not currently have access to the WAMapps portal.</p>
      {email ? (
        <p data-testid="signup-contact">
          Contact <a href={`mailto:${email}`}>{email}</a> to ask for access.
        </p>
      ) : (
        <p data-testid="signup-contact">Contact your Fund Audit administrator.</p>
      )}
    </AuthLayout>
  );
}

/** /404: page not found with a link home. */
export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <AuthLayout>
      <h1>Page not found</h1>
      <p>The address you opened does not exist.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </AuthLayout>
  );
}
