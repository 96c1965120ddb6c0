/**
 * The rules module: every spec rule the server, the browser and the CLI share (statuses and labels,
 * action enabling, file and process rules, display derivations, name rules, message texts).
 * It imports nothing but itself.
 */
export * from './derivations.js';
export * from './files.js';
export * from './fund-actions.js';
export * from './messages.js';
export * from './names.js';
export * from './statuses.js';
export * from './status-moves.js';
export * from './adjustments.js';
export * from './chasing.js';
export * from './demo.js';
export * from './scorecards.js';
