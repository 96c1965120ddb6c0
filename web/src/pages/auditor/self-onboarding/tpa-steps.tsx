/** Steps 1 and 2 of the Self-Onboarding wizard: select an existing TPA, or create one with live name feedback. */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { checkTpaName, type SdmTpa, type TpaNameCheck } from '../../../api/self-onboarding';

/** Select TPA: Next appears once a TPA is chosen; 'Create new TPA' goes to step 2. */
export function SelectTpaStep({
  tpas,
  chosen,
  onChoose,
  onNext,
  onCreate,
}: {
  tpas: readonly SdmTpa[];
  chosen: string | null;
  onChoose: (code: string | null) => void;
  onNext: () => void;
  onCreate: () => void;
}) {
  return (
    <div className="fa-aud-card" data-testid="sdm-select-tpa">
      <h3 style={{ marginTop: 0 }}>Select TPA</h3>
      <p className="fa-muted">Choose the administrator (TPA) whose files you upload, or create a new one.</p>
      <div className="fa-aud-toolbar">
        <label htmlFor="fa-sdm-tpa">TPA</label>
        <Dropdown
          inputId="fa-sdm-tpa"
          value={chosen}
          options={tpas.map((t) => ({ value: t.code, label: `${t.name} (${t.code})` }))}
          onChange={(e) => onChoose(e.value ?? null)}
          placeholder="Select a TPA"
          filter={tpas.length > 10}
          style={{ minWidth: 300 }}
        />
        {chosen && <Button label="Next" icon="pi pi-arrow-right" iconPos="right" onClick={onNext} />}
      </div>
      <Button label="Create new TPA" icon="pi pi-plus" text onClick={onCreate} />
    </div>
  );
}

/** Create TPA: a name with live feedback ('New' or 'Administrator already exist' or the name rule); Next only for a valid, new name. */
export function CreateTpaStep({
  code,
  name,
  onChange,
  onBack,
  onNext,
}: {
  code: string;
  name: string;
  onChange: (code: string, name: string) => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const [check, setCheck] = useState<TpaNameCheck | null>(null);
  useEffect(() => {
    setCheck(null);
    if (!code) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      checkTpaName(code, ctrl.signal).then(setCheck, () => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [code]);
  const ok = check?.status === 'New';
  return (
    <div className="fa-aud-card" data-testid="sdm-create-tpa">
      <h3 style={{ marginTop: 0 }}>Create TPA</h3>
      <div className="fa-field-grid">
        <label htmlFor="fa-sdm-code">TPA code</label>
        <div>
          <InputText
            id="fa-sdm-code"
            value={code}
            onChange={(e) => onChange(e.target.value, name)}
            aria-describedby="fa-sdm-code-check"
            placeholder="e.g. harbor_fund_admin"
          />
          <div id="fa-sdm-code-check" role="status" aria-live="polite" style={{ marginTop: '.25rem' }}>
            {check && (
              <span className={ok ? '' : 'fa-field-error'} style={ok ? { color: '#15803d', fontWeight: 600 } : undefined}>
                <i className={ok ? 'pi pi-check-circle' : 'pi pi-times-circle'} aria-hidden="true" /> {check.message}
              </span>
            )}
          </div>
        </div>
        <label htmlFor="fa-sdm-name">Display name</label>
        <InputText id="fa-sdm-name" value={name} onChange={(e) => onChange(code, e.target.value)} placeholder="Defaults to the code" />
      </div>
      <div className="fa-aud-toolbar" style={{ marginTop: '1rem' }}>
        <Button label="Back" icon="pi pi-arrow-left" outlined onClick={onBack} />
        {ok && <Button label="Next" icon="pi pi-arrow-right" iconPos="right" onClick={onNext} />}
      </div>
    </div>
  );
}
