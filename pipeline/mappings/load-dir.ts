/**
 * Loads a master mapping set from a folder of mapping csv files named by their mapping type
 * (`file_layout.csv`, `account_mapping.csv`, ...; DOMAIN.md 4), e.g. `fixtures/tpas/<code>/mappings`.
 * Used by tests and tools; the server keeps mappings in its database instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MappingType } from '../sdm/model.js';
import { buildCodeMap, buildLayouts, mappingTypeFromFileName, parseMappingCsv, type CodeMap, type Layout, type MappingParseResult } from './parse.js';

/** A compiled mapping set and each file's validation result. */
export interface MappingSet {
  layouts: Layout[];
  codeMaps: Partial<Record<MappingType, CodeMap>>;
  results: Partial<Record<MappingType, MappingParseResult>>;
}

/**
 * Reads every `<mapping type>.csv` of a folder (other files are ignored).
 * @throws Error naming the file and its first errors when a file is not valid
 */
export function loadMappingDir(dir: string): MappingSet {
  const set: MappingSet = { layouts: [], codeMaps: {}, results: {} };
  for (const file of readdirSync(dir).sort()) {
    const type = mappingTypeFromFileName(file);
    if (!type) continue;
    const parsed = parseMappingCsv(type, file, readFileSync(join(dir, file)));
    set.results[type] = parsed;
    if (!parsed.valid) throw new Error(`${join(dir, file)} is not a valid ${type}: ${parsed.errors.slice(0, 3).join('; ')}`);
    if (type === 'file_layout') set.layouts = buildLayouts(parsed.rows);
    else set.codeMaps[type] = buildCodeMap(parsed.rows);
  }
  return set;
}
