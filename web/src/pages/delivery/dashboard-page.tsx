/** Dashboard: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function DashboardPage() {
  return <EmptyPage title="Dashboard" />;
}
