/**
 * Generates `countries.data.ts`: ISO 3166-1 alpha-2 codes with their English short names, taken
 * from the `i18n-iso-countries` package (a devDependency; the runtime reads only the generated,
 * committed file). Run: `npx tsx server/services/reference-data/catalog/generate-countries.ts`.
 *
 * `XK` (Kosovo) is left out: the package lists it, but it is a user-assigned code, not one of the
 * 249 officially assigned ISO 3166-1 codes. Entries are sorted by English name (the select order).
 */
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { banner, isMainModule, renderEntry, writeGenerated } from './codegen.js';
import type { RefEntry } from './types.js';

/** Codes the package knows that are not officially assigned ISO 3166-1 alpha-2 codes. */
export const NON_ISO_COUNTRY_CODES: readonly string[] = ['XK'];

/** Version of the installed `i18n-iso-countries` package (recorded in the generated file). */
function packageVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('i18n-iso-countries/package.json') as { version: string }).version;
}

/** Country entries: code = alpha-2, alt_code = English (official short) name, sorted by name. */
export function buildCountries(): RefEntry[] {
  const names = countries.getNames('en', { select: 'official' });
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  return Object.entries(names)
    .filter(([code]) => !NON_ISO_COUNTRY_CODES.includes(code))
    .map(([code, name]) => ({ code: code.toUpperCase(), alt_code: name.trim(), deprecated: false }))
    .sort((a, b) => collator.compare(a.alt_code, b.alt_code) || a.code.localeCompare(b.code));
}

/** The full text of `countries.data.ts`. */
export function renderCountriesModule(): string {
  const entries = buildCountries();
  return [
    banner('generate-countries.ts', [
      `Source: ISO 3166-1 alpha-2, English names from npm i18n-iso-countries@${packageVersion()} (MIT);`,
      `${entries.length} officially assigned codes (user-assigned ${NON_ISO_COUNTRY_CODES.join(', ')} excluded).`,
    ]),
    "import type { RefEntry } from './types.js';",
    '',
    '/** ISO 3166-1 alpha-2 countries with English short names, sorted by name. */',
    'export const COUNTRIES: readonly RefEntry[] = [',
    ...entries.map(renderEntry),
    '];',
    '',
  ].join('\n');
}

if (isMainModule(import.meta.url)) {
  const text = renderCountriesModule();
  writeGenerated('countries.data.ts', text, `${buildCountries().length} countries`);
}
