/**
 * The backend of `fund-audit mappings` and `fund-audit tpa`: live mappings, their versions and
 * TPAs, through the API (in process on the local install, or on a server: cli/operation.ts).
 */
import { mappingTypeFromFileName } from '../../pipeline/mappings/parse.js';
import type { CreateMappingInput, MappingMode, MappingView } from '../../server/services/mappings/mappings.js';
import type { diffMappingVersions, MappingHistory } from '../../server/services/mappings/versions.js';
import type { UploadedCsv } from '../../server/services/sdm-upload/sdm-upload.js';
import type { SavedMasterMapping, TpaView } from '../../server/services/tpa/tpa.js';
import type { ApiResponse } from '../../server/http/contract.js';
import type { GlobalOptions } from '../global.js';
import { operation, withApi, type ApiSession } from '../operation.js';

/** The fields of a mapping upload (the Upload mapping form). */
export type MappingUpload = Omit<CreateMappingInput, 'fileName' | 'bytes'>;

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

function upload(api: ApiSession, input: MappingUpload, fileName: string, bytes: Uint8Array) {
  const form = new FormData();
  for (const [k, v] of Object.entries(input)) if (v !== undefined) form.append(k, String(v));
  form.append('upload', new Blob([new Uint8Array(bytes)]), fileName);
  return api.call('POST /api/v2.0/mappings/create', { body: form });
}

/** The backend of the global options: the API, on the server with `--server`, else in process on the local install. */
export function mappingsBackend(g: GlobalOptions): MappingsBackend {
  return {
    list: () => operation(g, 'GET /api/v2.0/mappings', {}),
    upload: (input, fileName, bytes) => withApi(g, (api) => upload(api, input, fileName, bytes)),
    download: (id, version) =>
      withApi(g, async (api) => {
        const { res, fileName } = await api.file('GET /api/v2.0/mappings/download', { query: { id, version } });
        return {
          fileName: fileName ?? (version ? `mapping_${id}_v${version}.csv` : `mapping_${id}.csv`),
          text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer()),
        };
      }),
    history: (id) => operation(g, 'GET /api/v2.0/mappings/:id/history', { params: { id } }),
    diff: (id, from, to) => operation(g, 'GET /api/v2.0/mappings/:id/diff', { params: { id }, query: { from, to } }),
    createTpa: (input) => operation(g, 'POST /api/v2.0/administrators', { body: input }),
    uploadMasters: (code, files, reason) =>
      withApi(g, async (api) => {
        const saved: SavedMasterMapping[] = [];
        for (const f of files) {
          const type = mappingTypeFromFileName(f.fileName)!;
          const input: MappingUpload = { administrator: code, mappingType: type, mappingMode: 'master', rationale: reason };
          const m = await upload(api, input, f.fileName, f.bytes);
          saved.push({ type, fileName: f.fileName, id: m.id, version: m.version ?? null });
        }
        return saved;
      }),
  };
}
