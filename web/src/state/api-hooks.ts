/**
 * Hands the API client (web/src/api) what it needs from the state: the session token, the 401
 * and 403 redirects, and the notification queue. The api folder imports no state; main.tsx calls
 * this once before the first render.
 */
import { registerApiHooks } from '../api/hooks';
import { navigate } from './navigation';
import { notify } from './notifications';
import { clearSession, session } from './session';

/** Registers the state's hooks with the API client. */
export function connectApiToState(): void {
  registerApiHooks({
    token: () => session.token,
    onUnauthorized: () => {
      clearSession();
      navigate('/authenticate', { replace: true });
    },
    onForbidden: () => navigate('/unauthorized', { replace: true }),
    notify: (notice) => notify(notice),
  });
}
