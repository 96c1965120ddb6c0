import { describe, expect, it } from 'vitest';
import { ApiError, DURATION, formatDefaultError, formatUploadError, GENERIC_ERROR, sizeLimitMessage } from './errors';

describe('formatDefaultError', () => {
  it('shows a validation message with the errors joined by "; " for 10 s', () => {
    const n = formatDefaultError({ status: 400, validationMessage: 'Invalid fund', errors: ['a is required', { message: 'b too long' }] });
    expect(n).toEqual({ summary: 'Invalid fund', detail: 'a is required; b too long', life: 10_000 });
  });

  it('shows a validation message alone when there are no errors', () => {
    expect(formatDefaultError({ status: 400, validationMessage: 'Bad input', errors: [] })).toEqual({ detail: 'Bad input', life: 10_000 });
  });

  it('does not repeat a message the server also sent as the only error', () => {
    expect(formatDefaultError({ status: 404, validationMessage: 'No such route', errors: ['No such route'] })).toEqual({
      detail: 'No such route',
      life: 10_000,
    });
  });

  it('shows the first error otherwise', () => {
    expect(formatDefaultError({ status: 404, errors: ['Not found', 'other'] }).detail).toBe('Not found');
    expect(formatDefaultError({ status: 409, errors: [{ id: 3, type: 'Duplicate Fund', message: 'Duplicate' }] }).detail).toBe('Duplicate');
  });

  it("falls back to 'An error occurred'", () => {
    expect(formatDefaultError({ status: 500 })).toEqual({ detail: GENERIC_ERROR, life: DURATION.default });
    expect(formatDefaultError({ status: 500, errors: ['', '  '] }).detail).toBe('An error occurred');
  });

  it('turns 413 and a multipart end into the size-limit toast (3 s)', () => {
    const expected = { detail: 'File upload failed. File size limit has been reached 200MB', life: 3_000 };
    expect(formatDefaultError({ status: 413 })).toEqual(expected);
    expect(formatDefaultError({ status: 400, validationMessage: 'Unexpected end of multipart data' })).toEqual(expected);
    expect(formatDefaultError({ status: 400, errors: ['Unexpected end of multipart data'] })).toEqual(expected);
    expect(sizeLimitMessage('10M')).toBe('File upload failed. File size limit has been reached 10MB');
  });

  it('formats an ApiError instance', () => {
    const err = new ApiError({ status: 400, validationMessage: 'Nope', errors: ['x'] });
    expect(err.message).toBe('Nope');
    expect(formatDefaultError(err).detail).toBe('x');
  });
});

describe('formatUploadError', () => {
  it('covers size limit, communication failure, server error and the fallback', () => {
    expect(formatUploadError({ status: 413 }, 'a.csv').detail).toBe(sizeLimitMessage());
    expect(formatUploadError({ status: 502 }, 'a.csv').detail).toMatch(/communication failure/);
    expect(formatUploadError({ status: 400, errors: ['Unexpected end of multipart data'] }, 'a.csv').detail).toMatch(/communication failure/);
    expect(formatUploadError({ status: 400, errors: ['Wrong columns'] }, 'a.csv').detail).toBe('Wrong columns');
    expect(formatUploadError({ status: 500 }, 'a.csv').detail).toBe('a.csv upload failed');
  });
});

describe('durations', () => {
  it('match the spec', () => {
    expect(DURATION).toEqual({ default: 10_000, toast: 3_000, validation: 60_000, success: 2_400, saveSuccess: 5_000, downloadRequest: 4_000 });
  });
});
