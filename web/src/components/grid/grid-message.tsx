/** Loading, empty and error states shared by the delivery grids. */
import { Button } from 'primereact/button';

/** The empty state of a grid (e.g. 'No data available'). */
export function GridEmpty({ text }: { text: string }) {
  return (
    <div className="fa-grid-empty" role="status">
      {text}
    </div>
  );
}

/** The error state of a grid with a retry button. */
export function GridError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="fa-grid-error" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <span>The list could not be loaded: {message}</span>
      <Button type="button" label="Retry" icon="pi pi-refresh" size="small" outlined onClick={onRetry} />
    </div>
  );
}
