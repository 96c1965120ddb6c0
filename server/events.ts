/**
 * Typed in-process event bus. Services publish changes users watch (files, processes, exports,
 * self-onboarding uploads); the WebSocket forwards them and Ink views render them as progress.
 * An event published inside a transaction (server/db/tx.ts) goes out once it has committed, and
 * not at all when it rolls back: nobody is told of rows they cannot read yet, or ever.
 */
import { EventEmitter } from 'node:events';
import { openTransaction } from './db/dialect.js';
import type { Role } from './db/schema/users.js';

/** Every event the server publishes, by name, with its data. */
export interface AppEvents {
  file: { id: number; fundRequestId?: number | null; kind?: string; status: string; fileName?: string };
  'import-file': { id: number; fileName: string; status: string; administratorId?: number | null; error?: string };
  process: { id: number; fundRequestId: number | null; stage: string; status: string; payload?: unknown };
  export: { id: number; status: string; userId?: number | null };
  'upload-file': { sdmUploadId: number; file: Record<string, unknown> };
  'fund-request': { ids: number[]; action: string };
  'test-run': { id: number; status: string };
  /**
   * Sessions (or keys) that ended or switched view, by token id: the sockets opened from them
   * close or take the new view at once, on every node. Never sent to a socket.
   */
  session: { tokenIds: number[]; ended: boolean; viewRole?: Role | null };
}
export type AppEventName = keyof AppEvents;

/** A typed wrapper over EventEmitter; `onAny` sees every event (used by the socket). */
export class EventBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  /** Tells every listener of `name` (and `onAny`), at once or, inside a transaction, once it has committed. */
  publish<K extends AppEventName>(name: K, data: AppEvents[K]): void {
    const open = openTransaction.getStore();
    if (open) open.afterCommit.push(() => this.emit(name, data));
    else this.emit(name, data);
  }
  private emit<K extends AppEventName>(name: K, data: AppEvents[K]): void {
    this.emitter.emit(name, data);
    this.emitter.emit('*', name, data);
  }
  on<K extends AppEventName>(name: K, listener: (data: AppEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
  onAny(listener: <K extends AppEventName>(name: K, data: AppEvents[K]) => void): () => void {
    this.emitter.on('*', listener);
    return () => this.emitter.off('*', listener);
  }
}
