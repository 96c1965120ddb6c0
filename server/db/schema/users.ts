/** Users, tokens (sign-in links, sessions, API keys, download and socket tokens) and privacy acceptances. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { bool, createdAt, id, updatedAt } from './common.js';

/** Roles a user can hold (spec section 6), as the rules module names them. */
export { ROLES, type Role } from '../../../rules/access.js';
import type { Role } from '../../../rules/access.js';

export const users = sqliteTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  username: text('username').notNull(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  role: text('role').$type<Role>().notNull(),
  originalRole: text('original_role').$type<Role>().notNull(),
  acceptedPrivacyVersion: text('accepted_privacy_version'),
  /** The OpenID Connect identity (`<issuer> <sub>`) of a user who signs in through single sign-on. */
  externalId: text('external_id').unique(),
  /** A Client user's client (the fund requests' client name): the only client whose scorecards and funds they see. */
  client: text('client'),
  disabled: bool('disabled').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Token kinds: one-time sign-in link, session, long-lived API key, short-lived download and socket
 * tokens, and file tokens that download one stored file only (the SAS token of a PowerBI input).
 */
export const TOKEN_KINDS = ['signin', 'session', 'api', 'download', 'socket', 'file'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export const tokens = sqliteTable(
  'tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TokenKind>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    label: text('label'),
    /** The view a session took (`role` of the spec's session); null: the user's own role. */
    viewRole: text('view_role').$type<Role>(),
    /** The identity provider's ID token of a single sign-on session, for ending the provider's session at logout. */
    idToken: text('id_token'),
    /** The token this one was asked for with (a socket token's session or API key): ending that one ends this one's socket. */
    parentTokenId: integer('parent_token_id'),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    revokedAt: text('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [index('tokens_user_idx').on(t.userId, t.kind)],
);

export const privacyAcceptances = sqliteTable('privacy_acceptances', {
  id: id(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: text('version').notNull(),
  acceptedAt: createdAt(),
});
