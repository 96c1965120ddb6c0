/** Custom Mapping tab of the data platform (config.customMappings): the 'Manage' and 'Apply & Rerun' views over one mapping list. */
import { useCallback, useEffect, useState } from 'react';
import { SelectButton } from 'primereact/selectbutton';
import { fetchMappings, type MappingRow } from '../../../api/custom-mappings';
import { ApplyView } from './apply-view';
import { ManageView } from './manage-view';

type View = 'manage' | 'apply';

/** The Custom Mapping tab. */
export function CustomMapping() {
  const [view, setView] = useState<View>('manage');
  const [mappings, setMappings] = useState<MappingRow[] | null>(null);
  const load = useCallback(() => {
    fetchMappings().then(setMappings, () => setMappings((m) => m ?? []));
  }, []);
  useEffect(load, [load]);
  return (
    <div data-testid="custom-mapping">
      <SelectButton
        value={view}
        options={[
          { value: 'manage', label: 'Manage' },
          { value: 'apply', label: 'Apply & Rerun' },
        ]}
        onChange={(e) => e.value && setView(e.value as View)}
        allowEmpty={false}
        aria-label="Custom mapping view"
        style={{ marginBottom: '1rem' }}
      />
      {!mappings ? (
        <p className="fa-muted" role="status">
          Loading mappings...
        </p>
      ) : view === 'manage' ? (
        <ManageView mappings={mappings} onChanged={load} />
      ) : (
        <ApplyView mappings={mappings} onChanged={load} />
      )}
    </div>
  );
}
