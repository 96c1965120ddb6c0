/** Root component: routes, notifications host, and the live socket tied to the session. */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { NotificationsHost } from './components/notifications-host';
import { frameForRole } from './route-table';
import { AppRoutes, preloadFrame } from './routes';
import { isSessionReady, session } from './state/session';
import { startSocket, stopSocket } from './state/socket';

/** Opens the socket once the session is fulfilled (it stops on logout). */
function LiveConnection() {
  const snap = useSnapshot(session);
  const ready = isSessionReady(snap);
  useEffect(() => {
    if (ready) startSocket();
    else stopSocket();
  }, [ready]);
  // Fetch the pages of the user's frame while sign-in finishes (privacy notice, redirects).
  const frame = snap.user ? frameForRole(snap.user.role) : null;
  useEffect(() => {
    if (frame) preloadFrame(frame);
  }, [frame]);
  return null;
}

export function App() {
  return (
    <>
      <LiveConnection />
      <AppRoutes />
      <NotificationsHost />
    </>
  );
}
