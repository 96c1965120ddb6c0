import { describe, expect, it } from 'vitest';
import { uploadErrorNotice } from './upload-errors';

describe('upload error toasts', () => {
  it('uses the server size-limit message of a 413', () => {
    const n = uploadErrorNotice({ status: 413, validationMessage: 'File upload failed. File size limit has been reached 1024B' }, 'a.csv');
    expect(n).toEqual({ detail: 'File upload failed. File size limit has been reached 1024B', life: 3_000 });
    expect(uploadErrorNotice({ status: 413 }, 'a.csv').detail).toBe('File upload failed. File size limit has been reached 200MB');
  });

  it('treats no answer as a communication failure', () => {
    expect(uploadErrorNotice({ status: 0, errors: ['Could not reach the server.'] }, 'a.csv').detail).toBe(
      'File upload failed due to communication failure (timeout, network disruption, too large file size).',
    );
  });

  it('shows the first server error, else names the file', () => {
    expect(uploadErrorNotice({ status: 400, errors: ['Choose an administrator before importing files'] }, 'a.csv').detail).toBe(
      'Choose an administrator before importing files',
    );
    expect(uploadErrorNotice({ status: 400, errors: [] }, 'a.csv').detail).toBe('a.csv upload failed');
  });
});
