/**
 * Short-lived download tokens (spec: export token, expires after 50,000 ms). A token belongs to the
 * session (or key) it was asked with: it acts in the view that session has when the download is
 * made (the auditor view once the session switched to it) and is refused once the session ended.
 * Any signed-in user may ask for one (a Client opens the onboarding guide with it): each download
 * route still checks its own group against the token's user.
 */
import { z } from 'zod';
import { issueToken, tokenIdOf, viewRoleOf } from '../../services/auth/tokens.js';
import { defineRoute } from '../route.js';

export const downloadRoutes = [
  defineRoute({
    method: 'GET',
    path: '/export/token',
    group: 'session',
    tag: 'downloads',
    summary: 'A download token for ?token= on download links (expires after downloadTokenTtlMs, default 50,000 ms)',
    response: z.strictObject({ token: z.string(), expiresAt: z.iso.datetime() }),
    handler: async ({ ctx, user, token }) =>
      issueToken(ctx, user.id, 'download', ctx.config.downloadTokenTtlMs, 'download', {
        viewRole: viewRoleOf(user),
        parentTokenId: token ? await tokenIdOf(ctx, token) : null,
      }),
  }),
];
