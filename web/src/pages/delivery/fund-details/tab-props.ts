/** What every tab of the delivery Fund details page receives. */
import type { FundDetails } from '../../../api/auditor-types';

export interface FundTabProps {
  /** The fund as `GET /fund/{id}` answered it. */
  fund: FundDetails;
  /** Fetches the fund again (after an action that changed it). */
  reload: () => void;
}
