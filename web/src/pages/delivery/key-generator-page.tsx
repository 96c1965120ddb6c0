/** Key generator: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function KeyGeneratorPage() {
  return <EmptyPage title="Key generator" />;
}
