/**
 * Connection status (colour and text). Hovering or focusing it lists the server mode, the feature
 * flags as enabled/disabled and the service versions.
 */
import { useSnapshot } from 'valtio';
import { CONNECTION_LOOK, connection } from '../state/connection';
import { session } from '../state/session';
import { featureLines } from '../state/view';

export function ConnectionIndicator() {
  const { state } = useSnapshot(connection);
  const { config } = useSnapshot(session);
  const look = CONNECTION_LOOK[state];
  const lines = config ? featureLines(config) : [];
  return (
    <div className="fa-conn">
      <button type="button" className="fa-conn-button" aria-describedby="fa-conn-details" data-state={state} data-testid="connection-indicator">
        <span className="fa-conn-dot" style={{ background: look.color }} aria-hidden="true" />
        <span style={{ color: look.color }}>{look.text}</span>
      </button>
      <div className="fa-conn-details" id="fa-conn-details" role="tooltip">
        <dl>
          {lines.map((l) => (
            <div key={l.label} className="fa-conn-line">
              <dt>{l.label}</dt>
              <dd data-value={l.value}>{l.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}

/** Connection status as plain text (footer). */
export function ConnectionText() {
  const { state } = useSnapshot(connection);
  const look = CONNECTION_LOOK[state];
  return (
    <span className="fa-conn-text" data-testid="footer-connection">
      <span className="fa-conn-dot" style={{ background: look.color }} aria-hidden="true" />
      Connection: {look.text.toLowerCase()}
    </span>
  );
}
