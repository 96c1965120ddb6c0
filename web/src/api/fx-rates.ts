/** The independent FX rates price testing reads, for the developer tools. */
import { api } from './client';

/** One loaded rate file and the dates and currencies it covers. */
export interface FxRateFile {
  file: string;
  format: 'ECB eurofxref-hist' | 'cross rates';
  rates: number;
  firstDate: string | null;
  lastDate: string | null;
  dates: number;
  currencies: string[];
}

/** Every loaded rate file (`GET /dev-tools/fx-rates`). */
export const fetchFxRates = () => api.get<FxRateFile[]>('/dev-tools/fx-rates');
