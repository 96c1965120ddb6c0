/** Users, tokens and privacy acceptances (PostgreSQL); see `server/db/schema/users.ts`. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { Role, TokenKind } from '../schema/users.js';
import { bool, createdAt, id, updatedAt } from './common.js';

export const users = pgTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  username: text('username').notNull(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  role: text('role').$type<Role>().notNull(),
  originalRole: text('original_role').$type<Role>().notNull(),
  acceptedPrivacyVersion: text('accepted_privacy_version'),
  externalId: text('external_id').unique(),
  /** A Client user's client (the fund requests' client name): the only client whose scorecards and funds they see. */
  client: text('client'),
  disabled: bool('disabled').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const tokens = pgTable(
  'tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TokenKind>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    label: text('label'),
    viewRole: text('view_role').$type<Role>(),
    idToken: text('id_token'),
    parentTokenId: integer('parent_token_id'),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    revokedAt: text('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [index('tokens_user_idx').on(t.userId, t.kind)],
);

export const privacyAcceptances = pgTable('privacy_acceptances', {
  id: id(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: text('version').notNull(),
  acceptedAt: createdAt(),
});
