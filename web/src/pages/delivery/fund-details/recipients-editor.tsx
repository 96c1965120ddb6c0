/**
 * The Recipients tab of delivery Fund details while editing (delivery spec section 2 "Recipients
 * (full_name, email, role)"; section 5: recipients need a role, the name is read-only). The name is
 * shown, never typed: a recipient added here gets the name of the Fund Audit user with its e-mail
 * when the fund is saved (the server fills it). A recipient without a role is marked, and the
 * server refuses the save naming it.
 */
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import type { Nrd, Recipient } from '../../../api/auditor-types';
import { refOptions } from '../../../state/auditor-nrd';
import { recipientEdits, recipientRowKey as keyOf } from '../../../components/fund-details/fund-form';

/** The editor. */
export function RecipientsEditor({ recipients, nrd, onChange }: { recipients: readonly Recipient[]; nrd: Nrd | null; onChange: (next: Recipient[]) => void }) {
  const roles = refOptions(nrd?.roles);
  const { update, remove, add: addWithRole } = recipientEdits(recipients, onChange);
  // the role is left to choose: a recipient without one is marked
  const add = () => addWithRole('');
  return (
    <div data-testid="recipients">
      <div className="fa-aud-toolbar">
        <Button label="Add recipient" icon="pi pi-user-plus" size="small" onClick={add} />
      </div>
      {recipients.length === 0 ? (
        <p className="fa-empty-text">No recipients</p>
      ) : (
        <table className="fa-fd-table" aria-label="Recipients">
          <thead>
            <tr>
              <th>Full name</th>
              <th>Email</th>
              <th>Role</th>
              <th>
                <span className="fa-sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {recipients.map((r, i) => (
              <tr key={keyOf(r)}>
                <td data-field="full_name">
                  {r.full_name || <span className="fa-empty-text">{r.id === undefined ? 'From the user with this e-mail, when saved' : ''}</span>}
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
                    placeholder="Choose a role"
                    aria-label={`Role of recipient ${i + 1}`}
                    className={r.role ? undefined : 'p-invalid'}
                    style={{ width: '100%' }}
                  />
                  {!r.role && <small className="fa-field-error">A role is required</small>}
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
