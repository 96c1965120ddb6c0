/** Loading and error states of a developer-tools panel. */
import type { ReactNode } from 'react';
import { GridError } from '../../../components/grid/grid-message';
import type { Loaded } from './use-load';

/** Renders `children(data)` once loaded; a spinner text while loading, the error with Retry on failure. */
export function PanelState<T>({ state, what, children }: { state: Loaded<T>; what: string; children: (data: T) => ReactNode }) {
  if (state.error && !state.data) return <GridError message={state.error} onRetry={() => void state.reload()} />;
  if (!state.data)
    return (
      <p className="fa-empty-text" role="status">
        Loading {what}...
      </p>
    );
  return <>{children(state.data)}</>;
}
