/**
 * The listing's tag strip: Reset first, then the saved filters (a delete cross on each that is
 * not fixed; a click applies the filter), and 'Save active filter' while fewer than 7 filters
 * exist (a name is required).
 */
import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import type { SavedFilter } from '../../../api/delivery-types';
import { MAX_SAVED_FILTERS } from '../../../state/fund-listing';

export interface FilterTagsProps {
  filters: readonly SavedFilter[];
  activeId: number | null;
  onReset: () => void;
  onApply: (f: SavedFilter) => void;
  onDelete: (f: SavedFilter) => void;
  onSave: (title: string) => Promise<boolean>;
}

/** Reset, saved filters and the save control. */
export function FilterTags({ filters, activeId, onReset, onApply, onDelete, onSave }: FilterTagsProps) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const invalid = touched && name.trim() === '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!name.trim()) return;
    setSaving(true);
    const ok = await onSave(name);
    setSaving(false);
    if (ok) {
      setName('');
      setTouched(false);
    }
  };

  return (
    <div className="fa-filter-bar">
      <ul className="fa-filter-tags" aria-label="Saved filters">
        <li>
          <button type="button" className="fa-tag fa-tag-reset" onClick={onReset}>
            <i className="pi pi-refresh" aria-hidden="true" /> Reset
          </button>
        </li>
        {filters.map((f) => (
          <li key={f.id} className={`fa-tag-item${f.id === activeId ? ' fa-tag-active' : ''}`} data-filter-id={f.id}>
            <button type="button" className="fa-tag" aria-pressed={f.id === activeId} onClick={() => onApply(f)}>
              {f.title}
            </button>
            {!f.fixed && (
              <button type="button" className="fa-tag-delete" aria-label={`Delete filter ${f.title}`} onClick={() => onDelete(f)}>
                <i className="pi pi-times" aria-hidden="true" />
              </button>
            )}
          </li>
        ))}
      </ul>
      {filters.length < MAX_SAVED_FILTERS && (
        <form className="fa-save-filter" onSubmit={submit} noValidate>
          <label htmlFor="fa-save-filter-name" className="fa-sr-only">
            Filter name
          </label>
          <InputText
            id="fa-save-filter-name"
            value={name}
            placeholder="Filter name"
            onChange={(e) => setName(e.target.value)}
            invalid={invalid}
            aria-invalid={invalid}
            aria-describedby={invalid ? 'fa-save-filter-error' : undefined}
            maxLength={200}
          />
          <Button type="submit" label="Save active filter" icon="pi pi-save" size="small" loading={saving} />
          {invalid && (
            <small id="fa-save-filter-error" className="fa-field-error" role="alert">
              A filter name is required
            </small>
          )}
        </form>
      )}
    </div>
  );
}
