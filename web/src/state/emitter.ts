/** A tiny typed event emitter. */

export type Listener<T> = (data: T) => void;

/** Typed emitter over an event map `{name: payload}`. */
export class Emitter<M extends Record<string, unknown>> {
  private listeners = new Map<keyof M, Set<Listener<never>>>();

  /** Subscribes; returns the unsubscribe function (handy as a React effect cleanup). */
  on<K extends keyof M>(event: K, listener: Listener<M[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => this.off(event, listener);
  }

  /** Removes a listener. */
  off<K extends keyof M>(event: K, listener: Listener<M[K]>): void {
    this.listeners.get(event)?.delete(listener as Listener<never>);
  }

  /** Calls every listener of the event; a throwing listener does not stop the others. */
  emit<K extends keyof M>(event: K, data: M[K]): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) {
      try {
        (l as Listener<M[K]>)(data);
      } catch (err) {
        console.error(`socket listener for '${String(event)}' failed`, err);
      }
    }
  }

  /** Number of listeners of an event. */
  count<K extends keyof M>(event: K): number {
    return this.listeners.get(event)?.size ?? 0;
  }
}
