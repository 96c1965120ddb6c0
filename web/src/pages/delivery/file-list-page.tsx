/** Input Files: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function FileListPage() {
  return <EmptyPage title="Input Files" />;
}
