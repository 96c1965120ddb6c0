/**
 * The fund's own tabs on the delivery Fund details page: Fund Codes (main first; alternates added
 * and removed in edit mode; the main code is never removable), Aggregation (consolidation flag,
 * group key, 'Open parent', children, Needs rerun, 'Too large', the forced aggregation rerun switch) and Mappings (the mapping in use per type,
 * a custom one assigned or removed; each change reruns the fund from standardization).
 */
import { useCallback, useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Dropdown } from 'primereact/dropdown';
import { InputSwitch } from 'primereact/inputswitch';
import type { FundDetails } from '../../../api/auditor-types';
import { ApiError } from '../../../api/errors';
import { assignFundMapping, fetchFundMappings, removeFundMapping, setAggregForceRun, type FundMappingType } from '../../../api/fund-activity';
import { notify } from '../../../state/notifications';
import type { Draft } from '../../../components/fund-details/fund-form';

/**
 * Fund codes: the main code first, then the alternates. In edit mode alternates are added,
 * changed and removed (empty ones are dropped on save); the main code is never removable and is
 * typed only on a new fund.
 */
export function FundCodesTab({
  fund,
  draft,
  editing,
  creating,
  onChange,
}: {
  fund: FundDetails;
  draft: Draft;
  editing: boolean;
  creating: boolean;
  onChange: (k: string, v: unknown) => void;
}) {
  const main = creating ? String(draft.fund_code ?? '') : (fund.fund_codes.find((c) => c.main)?.code ?? fund.fund_code ?? '');
  const alternates = draft.alternative_codes;
  const setAlternates = (next: string[]) => onChange('alternative_codes', next);
  return (
    <div>
      <table className="fa-fd-table" aria-label="Fund codes">
        <thead>
          <tr>
            <th>Code</th>
            <th>Kind</th>
            <th>
              <span className="fa-sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {editing && creating ? (
                <InputText value={main} onChange={(e) => onChange('fund_code', e.target.value)} aria-label="Main fund code" />
              ) : (
                <span data-field="main_code">{main || '-'}</span>
              )}
            </td>
            <td>Main</td>
            <td>
              <i className="pi pi-lock fa-muted" title="A main fund code cannot be removed" aria-label="A main fund code cannot be removed" />
            </td>
          </tr>
          {alternates.map((code, i) => (
            <tr key={i}>
              <td>
                {editing ? (
                  <InputText
                    value={code}
                    onChange={(e) => setAlternates(alternates.map((c, j) => (j === i ? e.target.value : c)))}
                    aria-label={`Alternate code ${i + 1}`}
                  />
                ) : (
                  <span data-field="alternate_code">{code}</span>
                )}
              </td>
              <td>Alternate</td>
              <td>
                {editing && (
                  <Button
                    icon="pi pi-times"
                    rounded
                    text
                    severity="danger"
                    aria-label={`Remove code ${code || i + 1}`}
                    onClick={() => setAlternates(alternates.filter((_, j) => j !== i))}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && <Button label="Add fund code" icon="pi pi-plus" size="small" text onClick={() => setAlternates([...alternates, ''])} />}
      {!editing && !alternates.length && <p className="fa-empty-text">No alternate codes</p>}
    </div>
  );
}

/**
 * Aggregation: consolidation flag, group key, parent link, children, whether the aggregate needs a
 * rerun (a child's data changed since it ran) or was too large to compute, and the forced
 * aggregation rerun switch (turned on, it queues the aggregation; the run turns it off).
 */
export function AggregationTab({ fund, onOpen, reload }: { fund: FundDetails; onOpen: (id: number) => void; reload: () => void }) {
  const [busy, setBusy] = useState(false);
  const toggle = async (value: boolean) => {
    setBusy(true);
    try {
      const r = await setAggregForceRun(fund.id, value);
      const detail = !value ? 'Forced aggregation rerun switched off' : r.processId ? 'The aggregation will run again' : 'Aggregation will be forced to rerun';
      notify({ severity: 'success', detail, life: 2400 });
      reload();
    } catch (err) {
      notify({ severity: 'error', summary: 'The switch could not be changed', detail: (err as ApiError).message });
    } finally {
      setBusy(false);
    }
  };
  const children = fund.children?.length ?? 0;
  const oversized = fund.calculationFiles?.some((f) => (f as { aggDataOversized?: boolean }).aggDataOversized) ?? false;
  return (
    <div className="fa-field-grid" data-testid="fa-fd-aggregation">
      <span className="fa-field-label">Consolidation flag</span>
      <span>{String(fund.aggreg_consol_flag ?? '') || '-'}</span>
      <span className="fa-field-label">Group key</span>
      <span>{String(fund.group_key ?? '') || '-'}</span>
      <span className="fa-field-label">Parent</span>
      <span>
        {fund.parentId ? (
          <button type="button" className="fa-linkbutton" onClick={() => onOpen(fund.parentId!)}>
            Open parent
          </button>
        ) : (
          '-'
        )}
      </span>
      <span className="fa-field-label">Children</span>
      <span>{children ? `${children} child fund(s), aggregated in ${String(fund.currency ?? '')}` : '-'}</span>
      <span className="fa-field-label">Needs rerun</span>
      <span data-testid="fa-fd-needs-rerun">{fund.needs_rerun ? "Yes: a child fund's data changed since the aggregation ran" : 'No'}</span>
      {children > 0 && (
        <>
          <span className="fa-field-label">Aggregate</span>
          <span data-testid="fa-fd-aggregate-status">{oversized ? 'Too large' : fund.calculationFiles?.length ? 'Computed' : 'Not computed yet'}</span>
        </>
      )}
      <label htmlFor="fa-fd-aggreg-force">Forced aggregation rerun</label>
      <InputSwitch inputId="fa-fd-aggreg-force" checked={Boolean(fund.aggreg_force_run)} disabled={busy} onChange={(e) => void toggle(Boolean(e.value))} />
    </div>
  );
}

/** Mappings of the fund per type: the one in use, a custom one assigned or removed. */
export function MappingsTab({ fund, reload }: { fund: FundDetails; reload: () => void }) {
  const [types, setTypes] = useState<FundMappingType[] | null>(null);
  const load = useCallback(() => {
    fetchFundMappings(fund.id).then(setTypes, () => setTypes([]));
  }, [fund.id]);
  useEffect(load, [load]);
  const choose = async (t: FundMappingType, mappingId: number) => {
    const current = t.mappings.find((m) => m.id === t.inUse);
    try {
      const target = t.mappings.find((m) => m.id === mappingId);
      if (target?.kind === 'custom') await assignFundMapping(fund.id, mappingId);
      else if (current?.kind === 'custom') await removeFundMapping(fund.id, current.id);
      notify({ severity: 'success', detail: `${t.type}: ${target?.description ?? ''} in use; the fund is standardized again`, life: 2400 });
    } catch (err) {
      notify({ severity: 'error', summary: 'The mapping could not be changed', detail: (err as ApiError).message });
    }
    load();
    reload();
  };
  if (!types)
    return (
      <p className="fa-empty-text" role="status">
        Loading...
      </p>
    );
  if (!types.length) return <p className="fa-empty-text">No mappings for this administrator</p>;
  return (
    <div className="fa-field-grid">
      {types.map((t) => (
        <FragmentRow key={t.type} t={t} onChoose={(id) => void choose(t, id)} />
      ))}
    </div>
  );
}

function FragmentRow({ t, onChoose }: { t: FundMappingType; onChoose: (id: number) => void }) {
  const id = `fa-fd-mapping-${t.type}`;
  return (
    <>
      <label htmlFor={id}>{t.type}</label>
      <Dropdown
        inputId={id}
        value={t.inUse}
        options={t.mappings.map((m) => ({ value: m.id, label: `${m.description} (${m.kind})` }))}
        onChange={(e) => onChoose(e.value as number)}
      />
    </>
  );
}
