/** The independent FX rates price testing reads, for the developer tools. */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** One loaded rate file and the dates and currencies it covers. */
export type FxRateFile = ApiResponse<'GET /api/v2.0/dev-tools/fx-rates'>[number];

/** Every loaded rate file (`GET /dev-tools/fx-rates`). */
export const fetchFxRates = () => call('GET /api/v2.0/dev-tools/fx-rates', {});
