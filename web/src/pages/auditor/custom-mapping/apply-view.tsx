/**
 * Custom Mapping 'Apply & Rerun' view (auditor spec 2.3, 5): choose administrator, mapping type,
 * mapping and funds (Pending, Open or Closed), then 'Apply Selected' (assign), 'Reset Selected'
 * (remove the custom mapping of that type from the selected funds holding one) or 'Rerun Selected'.
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import type { AuditorFundRow } from '../../../api/auditor-types';
import { assignMapping, fetchFundsByTpa, removeMappings, rerunFunds, type MappingRow } from '../../../api/custom-mappings';
import { ApiError } from '../../../api/errors';
import { notify, notifyError } from '../../../state/notifications';
import { administratorsWithMappings, applicableFunds, customOf, MAPPING_TYPES, resetPairs } from '../../../components/mappings/mapping-rules';
import { displayDate } from '../../../../../rules';

/** The Apply & Rerun view. */
export function ApplyView({ mappings, onChanged }: { mappings: readonly MappingRow[]; onChanged: () => void }) {
  const [admin, setAdmin] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [mappingId, setMappingId] = useState<number | null>(null);
  const [funds, setFunds] = useState<AuditorFundRow[]>([]);
  const [selected, setSelected] = useState<AuditorFundRow[]>([]);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    setFunds([]);
    setSelected([]);
    if (!admin) return;
    setLoading(true);
    fetchFundsByTpa(admin)
      .then((page) => setFunds(applicableFunds(page.rows)))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [admin]);

  const customs = mappings.filter((m) => m.kind === 'custom' && m.administrator.code === admin && m.type === type);
  const ids = selected.map((f) => f.id);
  // the custom mapping in use is part of the row data so the grid redraws it when mappings change
  const rows = funds.map((f) => ({ ...f, customMapping: admin && type ? (customOf(f.id, mappings, admin, type)?.description ?? '') : '' }));
  const selection = rows.filter((r) => ids.includes(r.id));

  const run = async (what: 'apply' | 'reset' | 'rerun') => {
    setBusy(what);
    try {
      if (what === 'apply' && mappingId) {
        await assignMapping(ids, mappingId);
        notify({ severity: 'success', detail: `Mapping applied to ${ids.length} fund request${ids.length === 1 ? '' : 's'}; they are rerun`, life: 2400 });
      } else if (what === 'reset' && admin && type) {
        const pairs = resetPairs(ids, mappings, admin, type);
        if (!pairs.length) notify({ severity: 'info', detail: `None of the selected funds holds a custom ${type}`, life: 2400 });
        else {
          await removeMappings(pairs);
          notify({ severity: 'success', detail: `Custom mapping removed from ${pairs.length} fund request${pairs.length === 1 ? '' : 's'}`, life: 2400 });
        }
      } else if (what === 'rerun') {
        await rerunFunds(ids);
        notify({ severity: 'success', detail: `Rerun queued for ${ids.length} fund request${ids.length === 1 ? '' : 's'}`, life: 2400 });
      }
      onChanged();
    } catch (err) {
      if (what === 'rerun' && err instanceof ApiError && err.status === 403)
        notify({ severity: 'error', detail: 'Rerun is not available to your role on this server' });
      else if (what === 'rerun' && err instanceof ApiError) notifyError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="custom-mapping-apply">
      <div className="fa-aud-card">
        <div className="fa-field-grid">
          <label htmlFor="fa-ap-admin">Administrator</label>
          <Dropdown
            inputId="fa-ap-admin"
            value={admin}
            options={administratorsWithMappings(mappings).map((a) => ({ value: a.code, label: a.name }))}
            onChange={(e) => {
              setAdmin(e.value);
              setMappingId(null);
            }}
            placeholder="Select an administrator"
          />
          <label htmlFor="fa-ap-type">Mapping type</label>
          <Dropdown
            inputId="fa-ap-type"
            value={type}
            options={MAPPING_TYPES.map((t) => ({ value: t, label: t }))}
            onChange={(e) => {
              setType(e.value);
              setMappingId(null);
            }}
            placeholder="Select a mapping type"
          />
          <label htmlFor="fa-ap-mapping">Mapping</label>
          <Dropdown
            inputId="fa-ap-mapping"
            value={mappingId}
            options={customs.map((m) => ({ value: m.id, label: m.description }))}
            onChange={(e) => setMappingId(e.value)}
            placeholder={admin && type && !customs.length ? 'No custom mapping of this type' : 'Select a custom mapping'}
          />
        </div>
      </div>
      <p className="fa-muted">The funds listed are those in Pending, Open or Closed states.</p>
      <div className="fa-aud-toolbar">
        <Button
          label="Apply Selected"
          icon="pi pi-check"
          size="small"
          disabled={!admin || !type || !mappingId || !ids.length || busy !== null}
          loading={busy === 'apply'}
          onClick={() => void run('apply')}
        />
        <Button
          label="Reset Selected"
          icon="pi pi-undo"
          size="small"
          outlined
          disabled={!admin || !type || !ids.length || busy !== null}
          loading={busy === 'reset'}
          onClick={() => void run('reset')}
        />
        <Button
          label="Rerun Selected"
          icon="pi pi-replay"
          size="small"
          outlined
          disabled={!ids.length || busy !== null}
          loading={busy === 'rerun'}
          onClick={() => void run('rerun')}
        />
      </div>
      <DataTable
        value={rows}
        dataKey="id"
        loading={loading}
        selectionMode="checkbox"
        selection={selection}
        onSelectionChange={(e) => setSelected(e.value as AuditorFundRow[])}
        size="small"
        emptyMessage={admin ? 'No fund requests' : 'Select an administrator'}
        aria-label="Funds of the administrator"
        paginator={funds.length > 50}
        rows={50}
      >
        <Column selectionMode="multiple" headerStyle={{ width: '3rem' }} />
        <Column field="name" header="Fund name" />
        <Column field="client" header="Client" />
        <Column header="Data due date" body={(r: AuditorFundRow) => displayDate(r.dueDate)} />
        <Column field="uploadStatus" header="Status" />
        <Column field="customMapping" header={type ? `Custom ${type}` : 'Custom mapping'} />
      </DataTable>
    </div>
  );
}
