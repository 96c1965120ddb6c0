/**
 * The contacts of one TPA or client: name (or the address when none is known), e-mail, role, time
 * zone and where the contact came from; Add, Edit, and Remove after a confirmation. An owner
 * without contacts says what contacts are for, with the Add button.
 */
import { useCallback, useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { CONTACT_ROLE_LABELS, contactLabel } from '../../../../../rules';
import { fetchContacts, removeContact, type ContactView } from '../../../api/chasing';
import type { ApiError } from '../../../api/errors';
import { notify } from '../../../state/notifications';
import { ContactDialog, type ContactOwner } from './contact-dialog';

/** Where a contact came from, in words. */
const SOURCE_LABELS: Record<string, string> = { manual: 'Added by hand', 'bulk-upload': 'Bulk upload', demo: 'Demo data' };

export function ContactsPanel({ owner, onChanged }: { owner: ContactOwner; onChanged: () => void }) {
  const [contacts, setContacts] = useState<ContactView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<{ editing: ContactView | null } | null>(null);
  const [removing, setRemoving] = useState<ContactView | null>(null);
  const of = owner.kind === 'tpa' ? { administratorId: owner.administratorId } : { client: owner.client };

  const load = useCallback(() => {
    fetchContacts(of).then(
      (c) => (setContacts(c), setError(null)),
      (err: ApiError) => setError(err.message),
    );
  }, [owner.administratorId, owner.client]);
  useEffect(() => {
    setContacts(null);
    load();
  }, [load]);

  const remove = async (c: ContactView) => {
    setRemoving(null);
    try {
      await removeContact(c.id);
      notify({ severity: 'success', detail: `${contactLabel(c)} removed from ${owner.label}`, life: 3000 });
    } catch (err) {
      notify({ severity: 'error', summary: 'The contact could not be removed', detail: (err as ApiError).message });
    }
    load();
    onChanged();
  };

  return (
    <section className="fa-card fa-contacts-list" aria-labelledby="fa-contacts-title">
      <div className="fa-card-head">
        <h2 id="fa-contacts-title">Contacts {contacts ? <span className="fa-muted">({contacts.length})</span> : null}</h2>
        <Button label="Add contact" icon="pi pi-plus" size="small" onClick={() => setDialog({ editing: null })} />
      </div>
      {error && !contacts ? (
        <div className="fa-error-banner" role="alert">
          {error} <Button label="Retry" text size="small" onClick={load} />
        </div>
      ) : !contacts ? (
        <p className="fa-empty-text" role="status">
          Loading...
        </p>
      ) : !contacts.length ? (
        <div className="fa-contacts-empty" data-testid="contacts-empty">
          <i className="pi pi-users" aria-hidden="true" />
          <p>
            <strong>No contacts yet.</strong> Chase mails about {owner.label}&apos;s fund requests go to its contacts: data contacts get every chase, escalation
            contacts the later late reminders.
          </p>
        </div>
      ) : (
        <table className="fa-fd-table fa-contacts-table" aria-label={`Contacts of ${owner.label}`}>
          <thead>
            <tr>
              <th>Name</th>
              <th>E-mail</th>
              <th>Role</th>
              <th>Time zone</th>
              <th>Source</th>
              <th>
                <span className="fa-sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {contacts.map((c) => (
              <tr key={c.id} data-contact={c.email}>
                <td>
                  {c.full_name.trim() ? (
                    c.full_name
                  ) : (
                    <span className="fa-muted" title="No name known: mails greet the address">
                      -
                    </span>
                  )}
                </td>
                <td>{c.email}</td>
                <td>{CONTACT_ROLE_LABELS[c.role] ?? c.role}</td>
                <td>{c.time_zone ?? <span className="fa-muted">UTC</span>}</td>
                <td className="fa-muted">{SOURCE_LABELS[c.source] ?? c.source}</td>
                <td className="fa-fd-actions">
                  <Button
                    icon="pi pi-pencil"
                    size="small"
                    text
                    rounded
                    aria-label={`Edit ${contactLabel(c)}`}
                    tooltip="Edit"
                    onClick={() => setDialog({ editing: c })}
                  />
                  <Button
                    icon="pi pi-trash"
                    size="small"
                    text
                    rounded
                    severity="danger"
                    aria-label={`Remove ${contactLabel(c)}`}
                    tooltip="Remove"
                    onClick={() => setRemoving(c)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dialog && (
        <ContactDialog
          owner={owner}
          editing={dialog.editing}
          onHide={() => setDialog(null)}
          onSaved={(c) => {
            setDialog(null);
            notify({ severity: 'success', detail: `${contactLabel(c)} ${dialog.editing ? 'saved' : `added to ${owner.label}`}`, life: 3000 });
            load();
            onChanged();
          }}
        />
      )}
      <ConfirmDialog
        visible={removing !== null}
        onHide={() => setRemoving(null)}
        header="Remove contact"
        message={removing ? `Remove ${contactLabel(removing)} (${removing.email}) from ${owner.label}? Later chase mails no longer go to them.` : ''}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Remove"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        defaultFocus="reject"
        accept={() => removing && void remove(removing)}
      />
    </section>
  );
}
