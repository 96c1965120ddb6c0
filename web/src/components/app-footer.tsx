/** Footer of both frames: connection status. */
import { ConnectionText } from './connection-indicator';

export function AppFooter() {
  return (
    <footer className="fa-footer">
      <span>Fund Audit</span>
      <ConnectionText />
    </footer>
  );
}
