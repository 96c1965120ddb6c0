/** The toast of a failed upload (auditor spec section 8), preferring the server's size-limit text. */
import { formatUploadError, type ErrorLike, type ErrorNotice } from '../../api/errors';

/**
 * 413 gives 'File upload failed. File size limit has been reached {limit}B' (with the server's
 * limit when it sent the message), a communication failure (502, no answer, 'Unexpected end of
 * multipart data') its message, else the first server error, else '{file name} upload failed'.
 */
export function uploadErrorNotice(err: ErrorLike, fileName: string): ErrorNotice {
  const message = err.validationMessage ?? '';
  if (err.status === 413 && message.startsWith('File upload failed. File size limit has been reached')) {
    return { detail: message, life: 3_000 };
  }
  // no answer at all: the server (or a proxy) may have closed the connection on a too large body
  if (err.status === 0) return formatUploadError({ status: 502 }, fileName);
  return formatUploadError(err, fileName);
}
