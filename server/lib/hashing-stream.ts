/** A stream stage that hashes and counts what passes through it (backups, blob copies). */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

/**
 * A pass-through Transform; `digest()` after the stream ended gives the sha256 (hex) and the size
 * (bytes) of everything that went through.
 */
export function hashingStream(): Transform & { digest(): { sha256: string; size: number } } {
  const hash = createHash('sha256');
  let size = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return Object.assign(t, { digest: () => ({ sha256: hash.digest('hex'), size }) });
}
