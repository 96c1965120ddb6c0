/** Typed calls of a mapping's history on Live mappings: its versions and the difference between two. */
import { api } from './client';

/** One version of a mapping (newest first in a history). */
export interface MappingVersion {
  version: number;
  sha256: string;
  author: string | null;
  reason: string;
  fileName: string | null;
  createdAt: string;
  rowCount: number;
  current: boolean;
  /** fund requests whose standardization applied this version */
  funds: Array<{ id: number; code: string | null; name: string; lastUsedAt: string }>;
}

export interface MappingHistory {
  id: number;
  description: string;
  type: string;
  kind: 'master' | 'custom';
  administrator: { code: string; name: string };
  currentVersion: number;
  versions: MappingVersion[];
}

export type MappingRowValues = Record<string, string>;

/** Rows added, removed and changed from version `from` to version `to`. */
export interface MappingVersionDiff {
  id: number;
  description: string;
  type: string;
  from: number;
  to: number;
  added: Array<{ key: string; row: MappingRowValues }>;
  removed: Array<{ key: string; row: MappingRowValues }>;
  changed: Array<{ key: string; from: MappingRowValues; to: MappingRowValues; columns: string[] }>;
  unchanged: number;
}

/** A mapping's versions. */
export function fetchMappingHistory(id: number): Promise<MappingHistory> {
  return api.get<MappingHistory>(`/mappings/${id}/history`);
}

/** The difference between two versions of a mapping. */
export function fetchMappingDiff(id: number, from: number, to: number): Promise<MappingVersionDiff> {
  return api.get<MappingVersionDiff>(`/mappings/${id}/diff?from=${from}&to=${to}`);
}
