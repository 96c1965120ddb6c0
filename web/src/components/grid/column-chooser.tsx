/** A column chooser: a multi-select of the grid's columns; unticked columns are hidden. */
import { MultiSelect } from 'primereact/multiselect';

export interface ChoosableColumn {
  key: string;
  header: string;
}

export interface ColumnChooserProps {
  columns: readonly ChoosableColumn[];
  visible: readonly string[];
  onChange: (visibleKeys: string[]) => void;
}

/** Shows and hides grid columns. */
export function ColumnChooser({ columns, visible, onChange }: ColumnChooserProps) {
  return (
    <MultiSelect
      className="fa-column-chooser"
      value={[...visible]}
      options={columns.map((c) => ({ label: c.header, value: c.key }))}
      onChange={(e) => onChange(e.value as string[])}
      placeholder="Columns"
      dropdownIcon="pi pi-table"
      maxSelectedLabels={0}
      selectedItemsLabel="Columns ({0})"
      aria-label="Choose columns"
      filter
    />
  );
}
