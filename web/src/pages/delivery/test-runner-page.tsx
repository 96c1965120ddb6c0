/** Test Runner: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function TestRunnerPage() {
  return <EmptyPage title="Test Runner" />;
}
