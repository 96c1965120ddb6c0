/**
 * Who may receive each live event (spec section 6; the socket tells a user only what the user may
 * read over HTTP). Each event belongs to the route group whose calls expose the same data; an
 * export is told only to users who may see it in the export lists.
 */
import type { AppConfig } from '../../config.js';
import type { Role } from '../../db/schema/index.js';
import type { AppEventName, AppEvents } from '../../events.js';
import { denyReason, type RouteGroup } from './permissions.js';

/** The route group of an event's data. */
function groupOf<K extends AppEventName>(name: K, data: AppEvents[K]): RouteGroup {
  switch (name) {
    case 'file':
      // a fund's file is in the fund details (shared); an unidentified or unmatched file only in the delivery file lists
      return (data as AppEvents['file']).fundRequestId ? 'shared' : 'delivery';
    case 'fund-request':
    case 'export':
      return 'shared';
    case 'upload-file':
      return 'auditor';
    default:
      // process, import-file, test-run: the delivery portal's calls
      return 'delivery';
  }
}

/**
 * Whether a user acting in a role may receive an event.
 * @param user the socket's user id and role (the view of the session it was opened from)
 * @returns true when the same data is readable by that role over HTTP
 */
export function mayReceiveEvent<K extends AppEventName>(name: K, data: AppEvents[K], user: { id: number; role: Role }, config: AppConfig): boolean {
  // the server's own notice to its sockets
  if (name === 'session') return false;
  if (denyReason(groupOf(name, data), user.role, config)) return false;
  if (name === 'export' && (user.role === 'Auditor' || user.role === 'Client')) return (data as AppEvents['export']).userId === user.id;
  return true;
}
