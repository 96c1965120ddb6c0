/** A compact table of log rows with loading, error and empty states. */
import type { ReactNode } from 'react';
import { Button } from 'primereact/button';

export interface LogColumn<R> {
  header: string;
  cell: (r: R) => ReactNode;
}

/** Rows of a fund log as a table; null rows mean loading. */
export function LogTable<R extends { id: number }>({
  label,
  rows,
  error,
  columns,
  empty,
  onRetry,
}: {
  label: string;
  rows: R[] | null;
  error: string | null;
  columns: LogColumn<R>[];
  empty: string;
  onRetry: () => void;
}) {
  if (error && !rows) {
    return (
      <div className="fa-error-banner" role="alert">
        {error} <Button label="Retry" text size="small" onClick={onRetry} />
      </div>
    );
  }
  if (!rows)
    return (
      <p className="fa-empty-text" role="status">
        Loading...
      </p>
    );
  if (!rows.length) return <p className="fa-empty-text">{empty}</p>;
  return (
    <table className="fa-fd-table" aria-label={label}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header}>{c.header}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            {columns.map((c) => (
              <td key={c.header}>{c.cell(r)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
