/** Hook: sets the header page title (and document title) while a page is shown. */
import { useEffect } from 'react';
import { setPageTitle } from '../state/navigation';

export function usePageTitle(title: string): void {
  useEffect(() => {
    setPageTitle(title);
  }, [title]);
}
