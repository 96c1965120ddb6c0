/**
 * The contact form (add or edit): name, e-mail, role (data or escalation) and time zone. The
 * server checks the address (RFC 5322), the role and the time zone and names the field of each
 * problem (`errors: [{column, message}]`); each message shows under its field, the first field in
 * error takes the focus. Enter in a text field saves, Escape closes.
 */
import { useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { RadioButton } from 'primereact/radiobutton';
import { CONTACT_ROLE_HINTS, CONTACT_ROLE_LABELS, CONTACT_ROLES, type ContactRole } from '../../../../../rules';
import { addContact, saveContact, type ContactFields, type ContactView } from '../../../api/chasing';
import type { ApiError } from '../../../api/errors';

/** The fields of the form, in the order the focus goes to the first one in error. */
const FIELDS = ['full_name', 'email', 'role', 'time_zone'] as const;
type Field = (typeof FIELDS)[number];

/** The IANA time zones the browser knows (the server checks the same names). */
function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC', 'Europe/London', 'Europe/Luxembourg', 'America/New_York', 'Asia/Singapore'];
}

export interface ContactOwner {
  /** 'tpa' (by administrator id) or 'client' (by name). */
  kind: 'tpa' | 'client';
  administratorId?: number;
  client?: string;
  /** The TPA's or the client's name, for the dialog's title. */
  label: string;
}

export function ContactDialog({
  owner,
  editing,
  onHide,
  onSaved,
}: {
  owner: ContactOwner;
  editing: ContactView | null;
  onHide: () => void;
  onSaved: (c: ContactView) => void;
}) {
  const [fields, setFields] = useState<ContactFields>({
    full_name: editing?.full_name ?? '',
    email: editing?.email ?? '',
    role: editing?.role ?? 'data',
    time_zone: editing?.time_zone ?? null,
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const refs = { full_name: useRef<HTMLInputElement>(null), email: useRef<HTMLInputElement>(null) };
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);

  const set = (k: Field, v: string | null) => {
    setFields((f) => ({ ...f, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const focusField = (k: Field) => {
    if (k === 'full_name' || k === 'email') refs[k].current?.focus();
    else document.getElementById(`fa-contact-${k}`)?.focus();
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving) return;
    if (!fields.email.trim()) {
      setErrors({ email: 'The e-mail address is required' });
      focusField('email');
      return;
    }
    setSaving(true);
    setGeneral(null);
    try {
      const of = owner.kind === 'tpa' ? { administratorId: owner.administratorId } : { client: owner.client };
      onSaved(editing ? await saveContact(editing.id, fields) : await addContact(of, fields));
    } catch (err) {
      const api = err as ApiError;
      const byField: Partial<Record<Field, string>> = {};
      for (const x of api.errors) {
        const column = typeof x === 'object' && x ? ((x as { column?: string }).column as Field | undefined) : undefined;
        if (column && FIELDS.includes(column) && typeof x === 'object') byField[column] = String(x.message);
      }
      // the same address twice in one role is refused as a conflict: it is about the address
      if (api.status === 409) byField.email = api.message;
      setErrors(byField);
      const first = FIELDS.find((k) => byField[k]);
      if (first) focusField(first);
      else setGeneral(api.message);
    } finally {
      setSaving(false);
    }
  };

  const error = (k: Field) =>
    errors[k] ? (
      <small className="fa-field-error" id={`fa-contact-${k}-error`} role="alert">
        {errors[k]}
      </small>
    ) : null;
  const described = (k: Field, hint?: string) =>
    errors[k] ? { 'aria-invalid': true, 'aria-describedby': `fa-contact-${k}-error` } : hint ? { 'aria-describedby': hint } : {};
  const enterSaves = (e: KeyboardEvent) => {
    if (e.key === 'Enter') void submit(e as unknown as FormEvent);
  };

  const footer = (
    <div>
      <Button label="Cancel" text type="button" onClick={onHide} />
      <Button label={editing ? 'Save contact' : 'Add contact'} icon="pi pi-check" type="submit" form="fa-contact-form" loading={saving} />
    </div>
  );
  return (
    <Dialog
      header={`${editing ? 'Edit contact' : 'New contact'} of ${owner.label}`}
      visible
      onHide={onHide}
      footer={footer}
      style={{ width: 'min(560px, 96vw)' }}
      onShow={() => refs.full_name.current?.focus()}
      className="fa-contact-dialog"
    >
      <form id="fa-contact-form" className="fa-contact-form" onSubmit={(e) => void submit(e)} noValidate>
        {general && (
          <div className="fa-error-banner" role="alert">
            {general}
          </div>
        )}
        <label htmlFor="fa-contact-full_name">Name</label>
        <div>
          <InputText
            id="fa-contact-full_name"
            ref={refs.full_name}
            value={fields.full_name}
            onChange={(e) => set('full_name', e.target.value)}
            onKeyDown={enterSaves}
            placeholder="Optional: the person's name"
            autoComplete="off"
            {...described('full_name')}
          />
          {error('full_name')}
        </div>
        <label htmlFor="fa-contact-email">E-mail</label>
        <div>
          <InputText
            id="fa-contact-email"
            ref={refs.email}
            value={fields.email}
            onChange={(e) => set('email', e.target.value)}
            onKeyDown={enterSaves}
            placeholder="jane.doe@tpa.com"
            inputMode="email"
            autoComplete="off"
            {...described('email', 'fa-contact-email-hint')}
          />
          {error('email') ?? (
            <small className="fa-muted" id="fa-contact-email-hint">
              The address alone, without a name (e.g. jane.doe@tpa.com).
            </small>
          )}
        </div>
        <span className="fa-contact-label" id="fa-contact-role-label">
          Role
        </span>
        <div role="radiogroup" aria-labelledby="fa-contact-role-label" {...described('role')}>
          {CONTACT_ROLES.map((r, i) => (
            <div key={r} className="fa-contact-role">
              <RadioButton
                inputId={i === 0 ? 'fa-contact-role' : `fa-contact-role-${r}`}
                name="role"
                value={r}
                checked={fields.role === r}
                onChange={() => set('role', r)}
              />
              <label htmlFor={i === 0 ? 'fa-contact-role' : `fa-contact-role-${r}`}>
                {CONTACT_ROLE_LABELS[r as ContactRole]} <span className="fa-muted">- {CONTACT_ROLE_HINTS[r as ContactRole]}</span>
              </label>
            </div>
          ))}
          {error('role')}
        </div>
        <label htmlFor="fa-contact-time_zone">Time zone</label>
        <div>
          <Dropdown
            inputId="fa-contact-time_zone"
            value={fields.time_zone}
            options={zones}
            onChange={(e) => set('time_zone', (e.value as string | null) ?? null)}
            filter
            showClear
            placeholder="UTC (none set)"
            className="fa-contact-zone"
            {...described('time_zone', 'fa-contact-zone-hint')}
          />
          {error('time_zone') ?? (
            <small className="fa-muted" id="fa-contact-zone-hint">
              Times in the contact&apos;s mails are shown in this zone.
            </small>
          )}
        </div>
      </form>
    </Dialog>
  );
}
