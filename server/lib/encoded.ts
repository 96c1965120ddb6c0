/**
 * An answer's payload encoded ahead, as the success envelope's bytes and their gzip form: a pool
 * thread makes them so that the thread serving requests only sends them (server/http/envelope.ts).
 */
import { gzipSync } from 'node:zlib';

/** A JSON payload in the success envelope as bytes, and their gzip form once made. */
export interface EncodedPayload {
  body: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
}

/**
 * Encodes a JSON payload in the success envelope, with its gzip form when `withGzip` (a pool
 * thread does both ahead, so that the thread serving requests does not compress).
 */
export function encodePayload(json: string, withGzip: boolean): EncodedPayload {
  const body = new TextEncoder().encode(`{"success":true,"payload":${json},"errors":[]}`);
  return withGzip && body.length > 1024 ? { body, gzip: new Uint8Array(gzipSync(body)) } : { body };
}
