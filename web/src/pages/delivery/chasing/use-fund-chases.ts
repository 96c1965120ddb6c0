/** Hook: a fund's chases (`GET /fund/:id/chases`), with a reload, and the open return of a file or of the fund. */
import { useCallback, useEffect, useState } from 'react';
import { isOpenChase, returnKey } from '../../../../../rules';
import { fetchFundChases, type ChaseView } from '../../../api/chasing';
import type { ApiError } from '../../../api/errors';

export interface FundChases {
  chases: ChaseView[] | null;
  error: string | null;
  reload: () => void;
  /** The id of the open 'Return to TPA' chase of a file (or, with null, of the fund), if any. */
  openReturnOf: (fundFileId: number | null) => number | null;
}

export function useFundChases(fundId: number): FundChases {
  const [chases, setChases] = useState<ChaseView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    fetchFundChases(fundId).then(
      (c) => (setChases(c), setError(null)),
      (err: ApiError) => setError(err.message),
    );
  }, [fundId]);
  useEffect(reload, [reload]);
  const openReturnOf = (fundFileId: number | null) =>
    chases?.find((c) => c.reason === 'returned' && isOpenChase(c.state) && returnKey(c.fundFileId) === returnKey(fundFileId))?.id ?? null;
  return { chases, error, reload, openReturnOf };
}
