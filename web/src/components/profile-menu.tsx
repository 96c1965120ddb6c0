/** Profile dropdown: Email, First name, Last name and Logout; keyboard operable (Escape closes). */
import { Fragment, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { session } from '../state/session';
import { logoutAndReload } from '../state/session-actions';

/**
 * An e-mail address that wraps, when it must, only after the '@' or before a '.' (never inside a
 * name, nor at a hyphen): the parts, each unbreakable, with a <wbr> between them.
 */
export function emailWithBreaks(email: string): ReactNode {
  const parts = email.split(/(?<=@)|(?=\.)/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      <span className="fa-nowrap">{part}</span>
    </Fragment>
  ));
}

export function ProfileMenu() {
  const { user } = useSnapshot(session);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const logoutRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    logoutRef.current?.focus();
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  if (!user) return null;
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <div className="fa-profile" ref={root} onKeyDown={(e) => e.key === 'Escape' && open && close()}>
      <button
        ref={toggle}
        type="button"
        className="fa-profile-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        <i className="pi pi-user" aria-hidden="true" />
        <span>{user.fullName || user.email}</span>
        <i className={open ? 'pi pi-angle-up' : 'pi pi-angle-down'} aria-hidden="true" />
      </button>
      {open && (
        <div className="fa-profile-menu" id={menuId} role="group" aria-label="Profile">
          <dl>
            <div>
              <dt>Email</dt>
              <dd className="fa-profile-email">{emailWithBreaks(user.email)}</dd>
            </div>
            <div>
              <dt>First name</dt>
              <dd>{user.firstName}</dd>
            </div>
            <div>
              <dt>Last name</dt>
              <dd>{user.lastName}</dd>
            </div>
          </dl>
          <button ref={logoutRef} type="button" className="fa-profile-logout" onClick={() => void logoutAndReload()}>
            <i className="pi pi-sign-out" aria-hidden="true" /> Logout
          </button>
        </div>
      )}
    </div>
  );
}
