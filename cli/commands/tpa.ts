/**
 * `fund-audit tpa create|upload-mappings`: onboard a TPA from the terminal (docs/onboarding.md):
 * create the administrator (name rule of `rules/names.ts`) and save a folder of master mappings,
 * each csv named after its mapping type, locally or on a server (--server), through the mappings
 * backend (cli/backend/mappings.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { mappingTypeFromFileName, parseMappingCsv } from '../../pipeline/mappings/parse.js';
import { MAPPING_TYPES } from '../../pipeline/sdm/model.js';
import { mappingNameError } from '../../rules/names.js';
import { NotFoundError, ValidationError } from '../../server/errors.js';
import type { UploadedCsv } from '../../server/services/sdm-upload/sdm-upload.js';
import type { SavedMasterMapping } from '../../server/services/tpa/tpa.js';
import { mappingsBackend } from '../backend/mappings.js';
import { globals } from '../global.js';
import { output } from '../output.js';

/**
 * The csv files of a mapping folder.
 * @throws NotFoundError when the folder cannot be read; ValidationError when it holds no csv
 */
export function readMappingFolder(dir: string): UploadedCsv[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new ValidationError(`${dir} is not a folder: give a folder of <mapping type>.csv files`);
    names = readdirSync(dir);
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new NotFoundError(`Cannot read the folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const csvs = names.filter((n) => /\.csv$/i.test(n)).sort();
  if (!csvs.length) throw new ValidationError(`${dir} holds no .csv file (expected files named ${MAPPING_TYPES.map((t) => `${t}.csv`).join(', ')})`);
  return csvs.map((n) => ({ fileName: n, bytes: readFileSync(join(dir, n)) }));
}

/** Checks the files as the server would before saving any of them (so none is saved when one is wrong). */
function checkBeforeSending(files: UploadedCsv[]): void {
  const errors: string[] = [];
  for (const f of files) {
    const type = mappingTypeFromFileName(f.fileName);
    if (!type) {
      errors.push(`${f.fileName}: not named after a mapping type (${MAPPING_TYPES.join(', ')})`);
      continue;
    }
    const parsed = parseMappingCsv(type, f.fileName, f.bytes);
    errors.push(...parsed.errors.map((e) => `${f.fileName}: ${e}`));
  }
  if (errors.length) throw new ValidationError(`${errors.length} error(s) in the mapping files; nothing was saved`, errors);
}

const printSaved = (saved: SavedMasterMapping[]) => {
  for (const s of saved) process.stdout.write(`${s.fileName} saved as master ${s.type} (id ${s.id}, version ${s.version ?? '-'})\n`);
};

export function registerTpa(program: Command): void {
  const cmd = program.command('tpa').description('Onboard a TPA: create it and upload its master mappings');

  cmd
    .command('create')
    .description('Create a TPA (administrator); with --mappings, also upload a folder of master mappings')
    .argument('<code>', 'TPA code: lowercase letters, digits, underscore; at most 50')
    .requiredOption('--name <name>', 'display name')
    .option('--region <region>', 'region, e.g. AMER, EMEA, APAC')
    .option('--mappings <dir>', 'folder of <mapping type>.csv files to save as its master mappings')
    .option('--reason <text>', 'recorded with each mapping version (at most 200)')
    .action(async (code: string, opts, c: Command) => {
      const g = globals(c);
      const ruleError = mappingNameError(code);
      if (ruleError) throw new ValidationError(ruleError);
      const files = opts.mappings ? readMappingFolder(opts.mappings) : [];
      checkBeforeSending(files);
      const backend = mappingsBackend(g);
      const tpa = await backend.createTpa({ code, name: opts.name, region: opts.region });
      const mappings = files.length ? await backend.uploadMasters(code, files, opts.reason) : [];
      output({ ...tpa, mappings }, !!g.json, () => {
        process.stdout.write(`TPA ${tpa.code} (${tpa.name}) created with id ${tpa.id}\n`);
        printSaved(mappings);
      });
    });

  cmd
    .command('upload-mappings')
    .description('Save every <mapping type>.csv of a folder as the master mappings of a TPA (all checked before any is saved)')
    .argument('<code>', 'TPA code')
    .argument('<dir>', 'folder of csv files named after their mapping type (file_layout.csv, account_mapping.csv, ...)')
    .option('--reason <text>', 'recorded with each new version (at most 200)')
    .action(async (code: string, dir: string, opts, c: Command) => {
      const g = globals(c);
      const files = readMappingFolder(dir);
      checkBeforeSending(files);
      const saved = await mappingsBackend(g).uploadMasters(code, files, opts.reason);
      output({ administrator: code, folder: basename(dir), mappings: saved }, !!g.json, () => printSaved(saved));
    });
}
