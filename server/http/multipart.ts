/**
 * Reading uploaded files from multipart requests (field names from the spec: `upload` for bulk
 * uploads and imports). Undecodable bodies become the spec's 'Unexpected end of multipart data'
 * validation error, which the screens show as a size-limit message.
 */
import type { H3Event } from 'h3';
import { TooLargeError, ValidationError } from '../errors.js';

export interface UploadedFile {
  fileName: string;
  bytes: Uint8Array;
}

/** The whole multipart form. */
export async function readForm(event: H3Event, maxBytes: number): Promise<FormData> {
  const length = Number(event.req.headers.get('content-length') ?? 0);
  if (length > maxBytes) throw new TooLargeError(maxBytes);
  const type = event.req.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) throw new ValidationError('Expected a multipart/form-data upload');
  let form: FormData;
  try {
    form = await event.req.formData();
  } catch {
    throw new ValidationError('Unexpected end of multipart data');
  }
  // a request without content-length (chunked) is measured once read
  let total = 0;
  for (const [, value] of form) if (typeof value !== 'string') total += value.size;
  if (total > maxBytes) throw new TooLargeError(maxBytes);
  return form;
}

/** Files of one field, in order. */
export async function filesOf(form: FormData, field: string): Promise<UploadedFile[]> {
  const out: UploadedFile[] = [];
  for (const value of form.getAll(field)) {
    if (typeof value === 'string') continue;
    out.push({ fileName: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return out;
}

/**
 * Exactly one file from a field.
 * @throws ValidationError when there is none or more than one
 */
export async function singleFile(form: FormData, field: string, what = 'file'): Promise<UploadedFile> {
  const files = await filesOf(form, field);
  if (!files.length) throw new ValidationError(`No ${what} was uploaded (multipart field '${field}')`);
  if (files.length > 1) throw new ValidationError(`Only one ${what} can be uploaded at a time (got ${files.length})`);
  return files[0];
}

/** A file download response. */
export function fileResponse(body: Uint8Array | string, fileName: string, contentType: string): Response {
  const data = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return new Response(new Uint8Array(data), {
    headers: {
      'content-type': contentType,
      'content-disposition': `attachment; filename="${fileName.replace(/"/g, '')}"`,
      'content-length': String(data.byteLength),
    },
  });
}
