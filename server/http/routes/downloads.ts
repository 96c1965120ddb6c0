/**
 * Short-lived download tokens (spec: export token, expires after 50,000 ms). A token carries the
 * view of the session it was asked with, so a download acts in the auditor view when the session does.
 * Any signed-in user may ask for one (a Client opens the onboarding guide with it): each download
 * route still checks its own group against the token's user.
 */
import { z } from 'zod';
import { issueToken, viewRoleOf } from '../../services/auth/tokens.js';
import { defineRoute } from '../route.js';

export const downloadRoutes = [
  defineRoute({
    method: 'GET',
    path: '/export/token',
    group: 'session',
    tag: 'downloads',
    summary: 'A download token for ?token= on download links (expires after downloadTokenTtlMs, default 50,000 ms)',
    response: z.strictObject({ token: z.string(), expiresAt: z.iso.datetime() }),
    handler: ({ ctx, user }) => issueToken(ctx, user.id, 'download', ctx.config.downloadTokenTtlMs, 'download', { viewRole: viewRoleOf(user) }),
  }),
];
