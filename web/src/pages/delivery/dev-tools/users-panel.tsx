/**
 * Settings, users (`GET /dev-tools/users`) and, in a local environment, a user token (`GET
 * /dev-tools/user/key/{userId}`: an API key of 10 years, shown once) and, when
 * `impersonateEnabled`, impersonation (`GET /dev-tools/user/key/{userId}/10h`: this tab then signs
 * in as that user for 10 hours).
 */
import { withBase } from '../../../api/base-path';
import { useState } from 'react';
import { Button } from 'primereact/button';
import { confirmDialog } from 'primereact/confirmdialog';
import { Dropdown } from 'primereact/dropdown';
import { fetchDevUsers, fetchImpersonation, fetchUserKey, type GeneratedKey } from '../../../api/dev-tools';
import type { SessionUser } from '../../../api/types';
import { SecretReveal } from '../../../components/secret-reveal';
import { setToken } from '../../../state/session';
import { PanelState } from './panel-state';
import { useLoad } from './use-load';
import { displayDate } from '../../../../../rules';

const label = (u: SessionUser) => `${u.fullName} (${u.email})`;

/** A user picker with one action. */
function UserAction({ id, users, action, busy, onRun }: { id: string; users: SessionUser[]; action: string; busy: boolean; onRun: (u: SessionUser) => void }) {
  const [userId, setUserId] = useState<number | string | null>(null);
  const user = users.find((u) => u.id === userId);
  return (
    <div className="fa-toolbar">
      <label htmlFor={id}>User</label>
      <Dropdown
        inputId={id}
        value={userId}
        options={users.map((u) => ({ value: u.id, label: label(u) }))}
        onChange={(e) => setUserId(e.value)}
        placeholder="Choose a user"
        filter
      />
      <Button type="button" label={action} size="small" loading={busy} disabled={!user} onClick={() => user && onRun(user)} />
    </div>
  );
}

/** Users, and the local-only token controls. */
export function UsersPanel({ local, impersonate }: { local: boolean; impersonate: boolean }) {
  const state = useLoad(fetchDevUsers);
  const [key, setKey] = useState<GeneratedKey | null>(null);
  const [busy, setBusy] = useState<'key' | 'impersonate' | null>(null);

  const generate = async (u: SessionUser) => {
    setBusy('key');
    try {
      setKey(await fetchUserKey(u.id));
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(null);
    }
  };
  const becomeUser = (u: SessionUser) =>
    confirmDialog({
      header: 'Impersonate',
      message: `Sign in as ${label(u)} for 10 hours? This tab leaves your session and acts as that user; log out to end it.`,
      icon: 'pi pi-user',
      acceptLabel: 'Impersonate',
      rejectLabel: 'Cancel',
      defaultFocus: 'reject',
      accept: async () => {
        setBusy('impersonate');
        try {
          const session = await fetchImpersonation(u.id);
          setToken(session.token);
          window.location.assign(withBase('/'));
        } catch {
          setBusy(null);
        }
      },
    });

  return (
    <section className="fa-card" aria-labelledby="fa-dev-users">
      <h2 id="fa-dev-users">Users</h2>
      <PanelState state={state} what="the users">
        {(users) => (
          <>
            <table className="fa-dev-table" aria-label="Users">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Email</th>
                  <th>Role</th>
                  <th>Original role</th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <tr key={u.id}>
                    <td>{u.fullName}</td>
                    <td>{u.email}</td>
                    <td>{u.role}</td>
                    <td>{u.originalRole}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {local && (
              <div role="group" aria-label="User token">
                <h3>User token</h3>
                <UserAction id="fa-dev-key-user" users={users} action="Generate token" busy={busy === 'key'} onRun={(u) => void generate(u)} />
                {key && (
                  <SecretReveal
                    label={`API key of ${key.email}`}
                    value={key.token}
                    details={[`Signs in as ${key.name} (${key.role}); valid until ${displayDate(key.expiresAt)}.`]}
                  />
                )}
              </div>
            )}
            {local && impersonate && (
              <div role="group" aria-label="Impersonation">
                <h3>Impersonation</h3>
                <UserAction id="fa-dev-imp-user" users={users} action="Impersonate" busy={busy === 'impersonate'} onRun={becomeUser} />
              </div>
            )}
          </>
        )}
      </PanelState>
    </section>
  );
}
