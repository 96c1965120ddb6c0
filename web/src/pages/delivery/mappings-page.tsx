/** Live mappings: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function MappingsPage() {
  return <EmptyPage title="Live mappings" />;
}
