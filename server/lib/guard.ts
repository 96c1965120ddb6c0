/**
 * The rule "the thread that serves requests never does heavy work", made checkable: the work the
 * request pools take over (parsing an upload, validating its rows, building a workbook, an
 * uncached listing query) calls `heavyWork(what)` first. Tests turn `refuseHeavyWork` on in the
 * thread that serves their requests: such work reaching that thread then fails loudly, while pool
 * threads (each with its own copy of this module) keep doing it. Off by default: the CLI and the
 * in-thread mode of the pools (`setRequestPoolOptions`, threads 0) do the work where they are.
 */

let refusing = false;

/** Makes heavy work on this thread throw (tests: the thread serving requests) or allows it again. */
export function refuseHeavyWork(on: boolean): void {
  refusing = on;
}

/**
 * Marks the start of heavy work.
 * @throws Error when this thread refuses heavy work (see `refuseHeavyWork`)
 */
export function heavyWork(what: string): void {
  if (refusing) throw new Error(`${what} ran on the thread that serves requests; it belongs in a request pool`);
}
