/** Calls of the security audit log in the developer tools. */
import type { ApiResponse } from '../../../server/http/contract';
import { apiUrl, call } from './client';

/** One entry of the security audit log. */
export type AuditEntry = ApiResponse<'GET /api/v2.0/dev-tools/audit-log'>[number];

/** The newest entries, newest first. */
export const fetchAuditLog = (limit = 100) => call('GET /api/v2.0/dev-tools/audit-log', { query: { limit } });
/** The hash chain's check: `problems` name each edited or removed entry. */
export const verifyAuditLog = () => call('GET /api/v2.0/dev-tools/audit-log/verify', {});
/** The export address (JSON lines) with a download token. */
export const auditLogExportUrl = (token: string) => `${apiUrl('/dev-tools/audit-log/export')}?token=${encodeURIComponent(token)}`;
