/** Footer of both frames: the support contact (a link; its address is not shown, auditor spec 2.2) and connection status. */
import { useSnapshot } from 'valtio';
import { session } from '../state/session';
import { ConnectionText } from './connection-indicator';

export function AppFooter() {
  const { config } = useSnapshot(session);
  return (
    <footer className="fa-footer">
      <span>Fund Audit</span>
      {config?.supportEmail && (
        <a href={`mailto:${config.supportEmail}`} data-testid="support-contact">
          Support
        </a>
      )}
      <ConnectionText />
    </footer>
  );
}
