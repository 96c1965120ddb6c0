/** Export files: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function ExportPage() {
  return <EmptyPage title="Export files" />;
}
