/** Shows queued notices as PrimeReact toasts. Mounted once at the root. */
import { useEffect, useRef } from 'react';
import { Toast } from 'primereact/toast';
import { useSnapshot } from 'valtio';
import { drainNotices, notifications } from '../state/notifications';

export function NotificationsHost() {
  const toast = useRef<Toast>(null);
  const snap = useSnapshot(notifications);
  // the id of the newest notice: two notices queued one after the other change it even when the
  // queue length reads the same between renders
  const newest = snap.queue.length ? snap.queue[snap.queue.length - 1].id : 0;

  useEffect(() => {
    if (newest === 0 || !toast.current) return;
    const notices = drainNotices();
    toast.current.show(
      notices.map((n) => ({
        severity: n.severity,
        summary: n.summary,
        detail: n.links?.length ? (
          <>
            <span style={{ whiteSpace: 'pre-line' }}>{n.detail}</span>
            {n.links.map((l) => (
              <button key={l.label} type="button" className="fa-linkbutton" style={{ display: 'block' }} onClick={l.onClick}>
                {l.label}
              </button>
            ))}
          </>
        ) : (
          n.detail
        ),
        life: n.life,
      })),
    );
  }, [newest]);

  return <Toast ref={toast} position="top-right" />;
}
