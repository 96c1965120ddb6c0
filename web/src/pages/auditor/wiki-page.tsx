/** WAM Wiki: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function WikiPage() {
  return <EmptyPage title="WAM Wiki" />;
}
