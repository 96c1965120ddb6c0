/**
 * The backend of `fund-audit mappings` and `fund-audit tpa`: live mappings, their versions and
 * TPAs, on the local data directory (services in process, as the first Admin) or on a server (the API).
 */
import { mappingTypeFromFileName } from '../../pipeline/mappings/parse.js';
import { mappingCsv } from '../../server/services/mappings/downloads.js';
import { createMapping, listMappingsFor, type MappingMode, type MappingView } from '../../server/services/mappings/mappings.js';
import { diffMappingVersions, mappingHistory, type MappingHistory } from '../../server/services/mappings/versions.js';
import type { UploadedCsv } from '../../server/services/sdm-upload/sdm-upload.js';
import { createTpa, uploadMasterMappings, type SavedMasterMapping, type TpaView } from '../../server/services/tpa/tpa.js';
import type { ApiResponse } from '../../server/http/contract.js';
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { download } from './download.js';
import { asSent, sentAs, withLocal } from './local.js';

/** The fields of a mapping upload (the Upload mapping form). */
export interface MappingUpload {
  administrator: string;
  mappingType: string;
  mappingMode: MappingMode;
  mappingName?: string;
  customId?: number;
  clientName?: string;
  rationale?: string;
}

/** A mapping as an upload saved it (its `description` names it). */
export type StoredMapping = ApiResponse<'POST /api/v2.0/mappings/create'>;

/** The rows changed between two versions of a mapping. */
export type MappingVersionDiff = Awaited<ReturnType<typeof diffMappingVersions>>;

/** A mapping as listed for the acting user: `canToggle` tells whether they may select it on the Live mappings screen. */
export type ListedMapping = MappingView & { canToggle: boolean };

export interface MappingsBackend {
  list(): Promise<ListedMapping[]>;
  /** Saves a mapping csv; resolves to the saved mapping (its `description` names it). */
  upload(input: MappingUpload, fileName: string, bytes: Uint8Array): Promise<StoredMapping>;
  /** A mapping (or one of its versions) as csv: the file name to suggest and the text. */
  download(id: number, version?: number): Promise<{ fileName: string; text: string }>;
  history(id: number): Promise<MappingHistory>;
  diff(id: number, from: number, to: number): Promise<MappingVersionDiff>;
  createTpa(input: { code: string; name: string; region?: string }): Promise<TpaView>;
  /** Saves csv files named after their mapping type as a TPA's master mappings (checked by the caller). */
  uploadMasters(code: string, files: UploadedCsv[], reason?: string): Promise<SavedMasterMapping[]>;
}

function remoteUpload(g: GlobalOptions, input: MappingUpload, fileName: string, bytes: Uint8Array) {
  const form = new FormData();
  for (const [k, v] of Object.entries(input)) if (v !== undefined) form.append(k, String(v));
  form.append('upload', new Blob([new Uint8Array(bytes)]), fileName);
  return remoteOperation(g, 'POST /api/v2.0/mappings/create', { body: form });
}

function remoteBackend(g: GlobalOptions): MappingsBackend {
  return {
    list: () => remoteOperation(g, 'GET /api/v2.0/mappings', {}),
    upload: (input, fileName, bytes) => remoteUpload(g, input, fileName, bytes),
    download: async (id, version) => {
      const { res, fileName } = await download(g, `mappings/download?id=${id}${version ? `&version=${version}` : ''}`);
      return { fileName: fileName ?? (version ? `mapping_${id}_v${version}.csv` : `mapping_${id}.csv`), text: await res.text() };
    },
    history: (id) => remoteOperation(g, 'GET /api/v2.0/mappings/:id/history', { params: { id } }),
    diff: (id, from, to) => remoteOperation(g, 'GET /api/v2.0/mappings/:id/diff', { params: { id }, query: { from, to } }),
    createTpa: (input) => remoteOperation(g, 'POST /api/v2.0/administrators', { body: input }),
    uploadMasters: async (code, files, reason) => {
      const saved: SavedMasterMapping[] = [];
      for (const f of files) {
        const type = mappingTypeFromFileName(f.fileName)!;
        const input: MappingUpload = { administrator: code, mappingType: type, mappingMode: 'master', rationale: reason };
        const m = await remoteUpload(g, input, f.fileName, f.bytes);
        saved.push({ type, fileName: f.fileName, id: m.id, version: m.version ?? null });
      }
      return saved;
    },
  };
}

/** The backend of the global options: the server's API with `--server`, else the local data directory. */
export function mappingsBackend(g: GlobalOptions): MappingsBackend {
  if (isRemote(g)) return remoteBackend(g);
  return {
    list: () => withLocal(g, async (ctx, user) => asSent(await listMappingsFor(ctx, user))),
    upload: (input, fileName, bytes) =>
      withLocal(g, async (ctx, user) =>
        sentAs('POST /api/v2.0/mappings/create', await createMapping(ctx, user, { ...input, fileName, bytes: Buffer.from(bytes) })),
      ),
    download: (id, version) => withLocal(g, (ctx) => mappingCsv(ctx, id, version)),
    history: (id) => withLocal(g, async (ctx) => asSent(await mappingHistory(ctx, id))),
    diff: (id, from, to) => withLocal(g, async (ctx) => asSent(await diffMappingVersions(ctx, id, from, to))),
    createTpa: (input) => withLocal(g, async (ctx) => asSent(await createTpa(ctx, input))),
    uploadMasters: (code, files, reason) => withLocal(g, async (ctx, user) => asSent(await uploadMasterMappings(ctx, user, code, files, reason))),
  };
}
