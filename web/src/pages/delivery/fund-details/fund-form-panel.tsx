/**
 * The left form of the delivery Fund details page (delivery spec section 2 "Fund details"): its
 * sections read-only until Edit, then each field editable as `canEditField` allows (the server's
 * `fund.editable` decides the rows). The administrator row shows the server's lock reason ('Parent
 * Fund Exist', 'Child Funds Exist', 'input files already attached') instead of a choice.
 */
import { Fragment } from 'react';
import { Dropdown } from 'primereact/dropdown';
import type { FundDetails, Nrd } from '../../../api/auditor-types';
import { refOptions } from '../../../state/auditor-nrd';
import { FieldRow } from '../../../components/fund-details/field-row';
import type { Draft, FormContext } from '../../../components/fund-details/fund-form';
import { canEditField, FORM_SECTIONS } from './delivery-fields';

/** Props of the form. */
export interface FundFormPanelProps {
  fund: FundDetails;
  draft: Draft;
  editing: boolean;
  creating: boolean;
  nrd: Nrd | null;
  config: FormContext['config'];
  onChange: (key: string, value: unknown) => void;
}

/** The fund's fields, section by section. */
export function FundFormPanel({ fund, draft, editing, creating, nrd, config, onChange }: FundFormPanelProps) {
  const ctx: FormContext = { draft, config };
  const rowsEditable = fund.editable?.rows ?? false;
  const lock = creating ? null : (fund.editable?.administratorLock ?? null);
  return (
    <aside className="fa-fd-form" aria-label="Fund form">
      {FORM_SECTIONS.map((section) => {
        const fields = section.fields.filter((x) => !x.show || x.show(ctx));
        if (!fields.length) return null;
        return (
          <section key={section.title} className="fa-fd-section" aria-label={section.title}>
            <h3>{section.title}</h3>
            <div className="fa-field-grid">
              {fields.map((x) => (
                <Fragment key={x.key}>
                  {x.key === 'gfis_client_code' && (
                    <AdministratorRow
                      current={fund.administrator}
                      value={(draft.administrator_code as string | null | undefined) ?? fund.administrator?.code ?? null}
                      editable={editing && (creating || (rowsEditable && !lock))}
                      lock={lock}
                      nrd={nrd}
                      onChange={(code) => onChange('administrator_code', code)}
                    />
                  )}
                  <FieldRow
                    field={x}
                    details={fund}
                    draft={draft}
                    nrd={nrd}
                    editable={editing && canEditField(x, { rowsEditable, creating })}
                    onChange={onChange}
                  />
                </Fragment>
              ))}
            </div>
          </section>
        );
      })}
    </aside>
  );
}

/** The administrator: a choice while it may change; else its name and the lock reason. */
function AdministratorRow({
  current,
  value,
  editable,
  lock,
  nrd,
  onChange,
}: {
  current: { code: string; name: string } | null;
  value: string | null;
  editable: boolean;
  lock: string | null;
  nrd: Nrd | null;
  onChange: (code: string | null) => void;
}) {
  return (
    <>
      {editable ? (
        <label htmlFor="fa-fd-administrator">Administrator (TPA)</label>
      ) : (
        <span className="fa-field-label" id="fa-fd-administrator-label">
          Administrator (TPA)
        </span>
      )}
      {editable ? (
        <div data-field="administrator">
          <Dropdown
            inputId="fa-fd-administrator"
            value={value}
            options={refOptions(nrd?.administrators)}
            onChange={(e) => onChange((e.value as string | null) ?? null)}
            filter
            placeholder="Select"
          />
        </div>
      ) : (
        <span className="fa-field-ro" data-field="administrator" aria-labelledby="fa-fd-administrator-label">
          {current?.name ?? '-'}
          {lock && (
            <span className="fa-fd-lock" title="The administrator cannot be changed">
              {' '}
              <i className="pi pi-lock" aria-hidden="true" /> {lock}
            </span>
          )}
        </span>
      )}
    </>
  );
}
