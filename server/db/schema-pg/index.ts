/** The whole database schema in the PostgreSQL dialect, generated from `server/db/schema` (see its modules). */
export * from './users.js';
export * from './reference.js';
export * from './funds.js';
export * from './files.js';
export * from './pipeline.js';
export * from './nodes.js';
export * from './audit.js';
export * from './adjustments.js';
export * from './chasing.js';
export * from './deliveries.js';
