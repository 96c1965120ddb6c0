/** Import files: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function ImportPage() {
  return <EmptyPage title="Import files" />;
}
