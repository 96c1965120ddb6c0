/** Per-sheet identification errors of an unidentified file: message, missing columns, closest match and match percent. */
import type { SheetError } from '../../../api/delivery-types';

/** The error list of one unidentified file. */
export function SheetErrors({ errors }: { errors: readonly SheetError[] }) {
  if (!errors.length) return <span className="fa-muted">No details</span>;
  return (
    <ul className="fa-sheet-errors">
      {errors.map((e, i) => (
        <li key={`${e.sheet_name ?? ''}-${i}`}>
          <span className="fa-sheet-message">
            {e.sheet_name ? <strong>{e.sheet_name}: </strong> : null}
            {e.error_message}
          </span>
          <dl>
            {e.columns_missing.length > 0 && (
              <>
                <dt>Columns missing</dt>
                <dd data-field="columns_missing">{e.columns_missing.join(', ')}</dd>
              </>
            )}
            {e.closest_match && (
              <>
                <dt>Closest match</dt>
                <dd data-field="closest_match">{e.closest_match}</dd>
              </>
            )}
            {e.column_match_percent !== null && (
              <>
                <dt>Match</dt>
                <dd data-field="column_match_percent">{e.column_match_percent}%</dd>
              </>
            )}
          </dl>
        </li>
      ))}
    </ul>
  );
}
