/** Shows queued notices as PrimeReact toasts. Mounted once at the root. */
import { useEffect, useRef } from 'react';
import { Toast } from 'primereact/toast';
import { useSnapshot } from 'valtio';
import { drainNotices, notifications } from '../state/notifications';

export function NotificationsHost() {
  const toast = useRef<Toast>(null);
  const snap = useSnapshot(notifications);
  const pending = snap.queue.length;

  useEffect(() => {
    if (pending === 0 || !toast.current) return;
    const notices = drainNotices();
    toast.current.show(
      notices.map((n) => ({
        severity: n.severity,
        summary: n.summary,
        detail: n.detail,
        life: n.life,
      })),
    );
  }, [pending]);

  return <Toast ref={toast} position="top-right" />;
}
