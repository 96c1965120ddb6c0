/** Fund details (/fund/:id, /fund/create): not built yet. */
import { EmptyPage } from '../../components/empty-page';

export function FundDetailsPage({ id }: { id?: string }) {
  const isNew = !id || id === 'create';
  return <EmptyPage title={isNew ? 'New fund request' : 'Fund details'} />;
}
