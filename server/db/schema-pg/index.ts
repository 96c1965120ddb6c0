/** The whole database schema in the PostgreSQL dialect: the same tables and columns as `server/db/schema`. */
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
