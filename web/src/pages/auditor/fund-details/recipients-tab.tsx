/** Recipients tab of the Fund details modal: search (name, email or role), add (role Auditor) and remove. Always editable. */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import type { Nrd, Recipient } from '../../../api/auditor-types';
import { refOptions } from '../../../state/auditor-nrd';
import { recipientEdits, recipientRowKey as keyOf, searchRecipients } from '../../../components/fund-details/fund-form';

/** Role of a new recipient (spec 2.3). */
export const NEW_RECIPIENT_ROLE = 'Auditor';

/** The recipients editor. */
export function RecipientsTab({ recipients, nrd, onChange }: { recipients: readonly Recipient[]; nrd: Nrd | null; onChange: (next: Recipient[]) => void }) {
  const [search, setSearch] = useState('');
  const roles = refOptions(nrd?.roles);
  const visible = searchRecipients(recipients, search);
  const edits = recipientEdits(recipients, onChange);
  const { update, remove } = edits;
  const add = () => {
    setSearch('');
    edits.add(NEW_RECIPIENT_ROLE);
  };
  return (
    <div data-testid="recipients">
      <div className="fa-aud-toolbar">
        <span className="p-input-icon-left fa-grow">
          <InputText
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search by name, email or role"
            aria-label="Search recipients"
            style={{ width: '100%', maxWidth: 360 }}
          />
        </span>
        <Button label="Add recipient" icon="pi pi-user-plus" size="small" onClick={add} />
      </div>
      {visible.length === 0 ? (
        <p className="fa-empty-text">{recipients.length ? 'No recipient matches the search.' : 'No recipients yet.'}</p>
      ) : (
        <table className="p-datatable-table" style={{ width: '100%', borderCollapse: 'collapse' }}>
          <thead>
            <tr>
              <th style={{ textAlign: 'left' }}>Full name</th>
              <th style={{ textAlign: 'left' }}>Email</th>
              <th style={{ textAlign: 'left' }}>Role</th>
              <th>
                <span className="fa-sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.map((r, i) => (
              <tr key={keyOf(r)}>
                <td>
                  <InputText
                    value={r.full_name}
                    onChange={(e) => update(r, { full_name: e.target.value })}
                    aria-label={`Full name of recipient ${i + 1}`}
                    style={{ width: '100%' }}
                  />
                </td>
                <td>
                  <InputText
                    value={r.email}
                    onChange={(e) => update(r, { email: e.target.value })}
                    aria-label={`Email of recipient ${i + 1}`}
                    style={{ width: '100%' }}
                  />
                </td>
                <td>
                  <Dropdown
                    value={r.role || null}
                    options={roles}
                    onChange={(e) => update(r, { role: e.value ?? '' })}
                    placeholder="Role"
                    aria-label={`Role of recipient ${i + 1}`}
                    style={{ width: '100%' }}
                  />
                </td>
                <td>
                  <Button
                    icon="pi pi-times"
                    rounded
                    text
                    severity="danger"
                    aria-label={`Remove recipient ${r.full_name || r.email || i + 1}`}
                    onClick={() => remove(r)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
