/**
 * Contacts (/contacts, delivery; docs/chasing.md "Recipients"): the people each TPA and each client
 * has for the chase mails, and each TPA's reminder schedule. A list of the TPAs (or the clients of
 * the fund requests) on the left, filterable, with how many contacts each has; the chosen one's
 * contacts (add, edit, remove) and, for a TPA, its schedule on the right. The choice is in the
 * address (`?tpa=<code>` or `?client=<name>`), so Fund details can link to it.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { InputText } from 'primereact/inputtext';
import { SelectButton } from 'primereact/selectbutton';
import { useSearch } from 'wouter';
import { fetchContactOwners, type ContactOwners } from '../../api/chasing';
import type { ApiError } from '../../api/errors';
import { usePageTitle } from '../../components/use-page-title';
import { navigate } from '../../state/navigation';
import { ContactsPanel } from './contacts/contacts-panel';
import { ScheduleCard } from './contacts/schedule-card';
import './delivery.css';
import './dev-tools.css';
import './contacts/contacts.css';

type Kind = 'tpa' | 'client';

export function ContactsPage() {
  usePageTitle('Contacts');
  const search = useSearch();
  const params = new URLSearchParams(search);
  const chosenTpa = params.get('tpa');
  const chosenClient = params.get('client');
  const [kind, setKind] = useState<Kind>(chosenClient ? 'client' : 'tpa');
  const [owners, setOwners] = useState<ContactOwners | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');

  const load = useCallback(() => {
    fetchContactOwners().then(
      (o) => (setOwners(o), setError(null)),
      (err: ApiError) => setError(err.message),
    );
  }, []);
  useEffect(load, [load]);
  useEffect(() => setKind(chosenClient ? 'client' : 'tpa'), [chosenClient]);

  const needle = filter.trim().toLowerCase();
  const tpas = useMemo(
    () => (owners?.administrators ?? []).filter((a) => !needle || a.name.toLowerCase().includes(needle) || a.code.toLowerCase().includes(needle)),
    [owners, needle],
  );
  const clients = useMemo(() => (owners?.clients ?? []).filter((c) => !needle || c.name.toLowerCase().includes(needle)), [owners, needle]);
  const tpa = owners?.administrators.find((a) => a.code === chosenTpa) ?? null;
  const client = chosenClient ? (owners?.clients.find((c) => c.name === chosenClient) ?? { name: chosenClient, funds: 0, contacts: 0 }) : null;
  // with nothing chosen, the first TPA is shown
  useEffect(() => {
    if (owners && !chosenTpa && !chosenClient && owners.administrators[0])
      navigate(`/contacts?tpa=${encodeURIComponent(owners.administrators[0].code)}`, { replace: true });
  }, [owners, chosenTpa, chosenClient]);

  const choose = (to: string) => navigate(`/contacts?${to}`);
  return (
    <section className="fa-page fa-contacts" aria-labelledby="fa-contacts-page-title">
      <div className="fa-page-head">
        <h1 id="fa-contacts-page-title">Contacts</h1>
      </div>
      <p className="fa-page-intro">
        Fund Audit mails its chases (missing files, failed checks, files returned by a reviewer) to the contacts of the fund request&apos;s TPA and client.
      </p>
      {error && !owners && (
        <div className="fa-error-banner" role="alert">
          {error}
        </div>
      )}
      <div className="fa-contacts-body">
        <nav className="fa-contacts-owners" aria-label="TPAs and clients">
          <SelectButton
            value={kind}
            options={[
              { value: 'tpa', label: `TPAs${owners ? ` (${owners.administrators.length})` : ''}` },
              { value: 'client', label: `Clients${owners ? ` (${owners.clients.length})` : ''}` },
            ]}
            onChange={(e) => e.value && setKind(e.value as Kind)}
            allowEmpty={false}
            aria-label="Show TPAs or clients"
          />
          <span className="fa-contacts-filter">
            <i className="pi pi-search" aria-hidden="true" />
            <InputText
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder={kind === 'tpa' ? 'Filter TPAs' : 'Filter clients'}
              aria-label={kind === 'tpa' ? 'Filter TPAs' : 'Filter clients'}
            />
          </span>
          {!owners ? (
            <p className="fa-empty-text" role="status">
              Loading...
            </p>
          ) : (
            <ul className="fa-contacts-owner-list">
              {(kind === 'tpa' ? tpas : clients).map((o) => {
                const code = 'code' in o ? o.code : null;
                const active = code ? code === chosenTpa : o.name === chosenClient;
                return (
                  <li key={code ?? o.name}>
                    <button
                      type="button"
                      className={`fa-contacts-owner${active ? ' fa-active' : ''}`}
                      aria-current={active ? 'true' : undefined}
                      onClick={() => choose(code ? `tpa=${encodeURIComponent(code)}` : `client=${encodeURIComponent(o.name)}`)}
                    >
                      <span className="fa-contacts-owner-name" title={o.name}>
                        {o.name}
                      </span>
                      <span className={`fa-contacts-count${o.contacts ? '' : ' fa-contacts-none'}`}>
                        {o.contacts ? `${o.contacts} contact${o.contacts === 1 ? '' : 's'}` : 'no contacts'}
                      </span>
                      {code && <span className="fa-muted fa-contacts-owner-code">{code}</span>}
                    </button>
                  </li>
                );
              })}
              {!(kind === 'tpa' ? tpas : clients).length && (
                <li className="fa-empty-text">{needle ? 'Nothing matches the filter' : kind === 'tpa' ? 'No TPAs yet' : 'No fund request has a client yet'}</li>
              )}
            </ul>
          )}
        </nav>
        <div className="fa-contacts-detail">
          {tpa ? (
            <>
              <header className="fa-contacts-detail-head">
                <h2>{tpa.name}</h2>
                <span className="fa-muted">TPA {tpa.code}</span>
              </header>
              <ContactsPanel owner={{ kind: 'tpa', administratorId: tpa.id, label: tpa.name }} onChanged={load} />
              <ScheduleCard administratorId={tpa.id} tpaName={tpa.name} onChanged={load} />
            </>
          ) : client ? (
            <>
              <header className="fa-contacts-detail-head">
                <h2>{client.name}</h2>
                <span className="fa-muted">
                  Client of {client.funds} fund request{client.funds === 1 ? '' : 's'}
                </span>
              </header>
              <ContactsPanel owner={{ kind: 'client', client: client.name, label: client.name }} onChanged={load} />
            </>
          ) : owners && chosenTpa ? (
            <div className="fa-error-banner" role="alert">
              No TPA with code {chosenTpa}
            </div>
          ) : owners && !owners.administrators.length ? (
            <p className="fa-empty-text">No TPAs yet: their contacts are kept here once they are onboarded.</p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
