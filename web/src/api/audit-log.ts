/** Calls of the security audit log in the developer tools. */
import { api, apiUrl } from './client';

/** One entry of the security audit log. */
export interface AuditEntry {
  id: number;
  at: string;
  actorId: number | null;
  actorEmail: string | null;
  action: string;
  subject: string | null;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

/** The newest entries, newest first. */
export const fetchAuditLog = (limit = 100) => api.get<AuditEntry[]>(`/dev-tools/audit-log?limit=${limit}`);
/** The hash chain's check: `problems` name each edited or removed entry. */
export const verifyAuditLog = () => api.get<{ ok: boolean; entries: number; problems: string[] }>('/dev-tools/audit-log/verify');
/** The export address (JSON lines) with a download token. */
export const auditLogExportUrl = (token: string) => `${apiUrl('/dev-tools/audit-log/export')}?token=${encodeURIComponent(token)}`;
