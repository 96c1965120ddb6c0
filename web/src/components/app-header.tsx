/** Header of both frames: application name, ('Marketplace' for auditors), page title, connection, profile. */
import { useSnapshot } from 'valtio';
import { navigation } from '../state/navigation';
import { ConnectionIndicator } from './connection-indicator';
import { ProfileMenu } from './profile-menu';
import type { Frame } from '../route-table';

export function AppHeader({ frame }: { frame: Frame }) {
  const { title } = useSnapshot(navigation);
  return (
    <header className="fa-header">
      <div className="fa-header-brand">
        <span className="fa-app-name">Fund Audit</span>
        {frame === 'auditor' && <span className="fa-marketplace">Marketplace</span>}
      </div>
      <div className="fa-header-title" data-testid="page-title">
        {title}
      </div>
      <div className="fa-header-tools">
        <ConnectionIndicator />
        <ProfileMenu />
      </div>
    </header>
  );
}
