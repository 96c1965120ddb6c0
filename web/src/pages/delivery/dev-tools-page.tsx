/** Settings: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function DevToolsPage() {
  return <EmptyPage title="Settings" />;
}
