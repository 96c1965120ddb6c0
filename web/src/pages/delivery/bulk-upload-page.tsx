/** Bulk upload: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function BulkUploadPage() {
  return <EmptyPage title="Bulk upload" />;
}
