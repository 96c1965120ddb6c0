/** The independent FX rates the checks test a TPA's rates against: the files, uploads and removals. */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** One loaded rate file and the dates and currencies it covers. */
export type FxRateFile = ApiResponse<'GET /api/v2.0/dev-tools/fx-rates'>[number];

/** The files in order of preference, the shipped history's dates, the age limit and the default tolerance. */
export type FxRatesOverview = ApiResponse<'GET /api/v2.0/reference/fx-rates'>;

/** Every loaded rate file (`GET /dev-tools/fx-rates`), for the developer tools. */
export const fetchFxRates = () => call('GET /api/v2.0/dev-tools/fx-rates', {});

/** The overview of the independent rates (`GET /reference/fx-rates`); a failure is shown by the FX rates panel, in place. */
export const fetchFxRatesOverview = () => call('GET /api/v2.0/reference/fx-rates', {}, { suppressError: true });

/** Uploads a file of independent rates (refusals handled by the caller, which shows the message). */
export function uploadFxRates(file: File): Promise<FxRateFile> {
  const form = new FormData();
  form.append('upload', file, file.name);
  return call('POST /api/v2.0/reference/fx-rates', { body: form }, { suppressError: true });
}

/** Removes an uploaded file of rates. */
export const removeFxRates = (file: string) => call('DELETE /api/v2.0/reference/fx-rates/:file', { params: { file } });
