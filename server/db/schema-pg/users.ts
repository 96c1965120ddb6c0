/**
 * Generated from `server/db/schema/users.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type * as s from '../schema/users.js';
import { type Data, isoNow } from './common.js';

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  email: text('email').$type<Data<typeof s.users.email>>().notNull().unique(),
  username: text('username').$type<Data<typeof s.users.username>>().notNull(),
  firstName: text('first_name').$type<Data<typeof s.users.firstName>>().notNull().default(''),
  lastName: text('last_name').$type<Data<typeof s.users.lastName>>().notNull().default(''),
  role: text('role').$type<Data<typeof s.users.role>>().notNull(),
  originalRole: text('original_role').$type<Data<typeof s.users.originalRole>>().notNull(),
  acceptedPrivacyVersion: text('accepted_privacy_version').$type<Data<typeof s.users.acceptedPrivacyVersion>>(),
  externalId: text('external_id').$type<Data<typeof s.users.externalId>>().unique(),
  client: text('client').$type<Data<typeof s.users.client>>(),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: text('created_at').$type<Data<typeof s.users.createdAt>>().notNull().default(isoNow),
  updatedAt: text('updated_at').$type<Data<typeof s.users.updatedAt>>().notNull().default(isoNow),
});

export const tokens = pgTable(
  'tokens',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<Data<typeof s.tokens.kind>>().notNull(),
    tokenHash: text('token_hash').$type<Data<typeof s.tokens.tokenHash>>().notNull().unique(),
    label: text('label').$type<Data<typeof s.tokens.label>>(),
    viewRole: text('view_role').$type<Data<typeof s.tokens.viewRole>>(),
    idToken: text('id_token').$type<Data<typeof s.tokens.idToken>>(),
    parentTokenId: integer('parent_token_id'),
    expiresAt: text('expires_at').$type<Data<typeof s.tokens.expiresAt>>().notNull(),
    usedAt: text('used_at').$type<Data<typeof s.tokens.usedAt>>(),
    revokedAt: text('revoked_at').$type<Data<typeof s.tokens.revokedAt>>(),
    createdAt: text('created_at').$type<Data<typeof s.tokens.createdAt>>().notNull().default(isoNow),
  },
  (t) => [index('tokens_user_idx').on(t.userId, t.kind)],
);

export const privacyAcceptances = pgTable('privacy_acceptances', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: text('version').$type<Data<typeof s.privacyAcceptances.version>>().notNull(),
  acceptedAt: text('created_at').$type<Data<typeof s.privacyAcceptances.acceptedAt>>().notNull().default(isoNow),
});
