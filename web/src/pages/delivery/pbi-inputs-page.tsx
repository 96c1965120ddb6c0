/** PowerBI Inputs: not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function PbiInputsPage() {
  return <EmptyPage title="PowerBI Inputs" />;
}
