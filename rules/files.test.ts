/** File and process rules, from delivery spec section 4 "Files", "Processes" and the file status derivations. */
import { describe, expect, it } from 'vitest';
import {
  AUDITOR_FILE_STATUSES,
  auditorFileStatus,
  canCancelProcess,
  canResetProcess,
  canToggleRequired,
  canToggleReview,
  fileStatusLabel,
  listedStandardizations,
  skippedSheetsLabel,
  skippedSheetsText,
  validationCell,
  type FileFacts,
} from './files.js';

const file = (over: Partial<FileFacts>): FileFacts => ({ kind: 'input', status: 'assigned', reviewed: false, disabled: false, ...over });

describe('file review and not-required', () => {
  // "neither is offered while the file is pending; a reviewed file cannot be disabled; a disabled
  // file cannot be reviewed"
  it.each([
    ['a pending file', file({ status: 'pending' }), false, false],
    ['a file being processed', file({ status: 'processing' }), false, false],
    ['a received file', file({}), true, true],
    ['a reviewed file (Unreview offered, Not required not)', file({ reviewed: true }), true, false],
    ['a not-required file (Required offered, Review not)', file({ disabled: true }), false, true],
    ['a calculation file', file({ kind: 'calculation' }), false, false],
    ['a standardization file (review only)', file({ kind: 'standardization' }), true, false],
    ['a produced work paper', file({ kind: 'work_paper', status: 'done' }), true, true],
  ])('%s: review %s, not required %s', (_name, f, review, required) => {
    expect(canToggleReview(f)).toBe(review);
    expect(canToggleRequired(f)).toBe(required);
  });
});

describe('file status and validation cells', () => {
  // "File status: Pending, Ready, Ready rerun (reviewed and rerun_count above 0), In review (not
  // reviewed), Not applicable (disabled)"; work papers "Not applicable when disabled, Released or
  // Not released when assigned, otherwise raw status"
  it.each([
    [file({ status: 'pending' }), 0, 'Pending'],
    [file({ status: 'processing' }), 0, 'Pending'],
    [file({ kind: 'standardization', status: 'error' }), 0, 'In review'],
    [file({ reviewed: true }), 0, 'Ready'],
    [file({ reviewed: true }), 2, 'Ready rerun'],
    [file({}), 0, 'In review'],
    [file({ disabled: true }), 0, 'Not applicable'],
    [file({ kind: 'work_paper', status: 'assigned', released: true }), 0, 'Released'],
    [file({ kind: 'work_paper', status: 'assigned' }), 0, 'Not released'],
    [file({ kind: 'work_paper', status: 'error' }), 0, 'error'],
    [file({ kind: 'work_paper', disabled: true }), 0, 'Not applicable'],
  ])('%j with rerun count %i is %s', (f, rerun, label) => expect(fileStatusLabel(f, rerun)).toBe(label));

  // every file but a work paper says one of the spec's five file statuses, whatever its raw status
  it.each(['pending', 'processing', 'assigned', 'done', 'error', 'ignored', null])('a %s input or standardization file shows a spec file status', (status) => {
    for (const kind of ['input', 'standardization', 'calculation'])
      for (const reviewed of [false, true]) expect(AUDITOR_FILE_STATUSES).toContain(fileStatusLabel(file({ kind, status, reviewed }), 1));
  });

  // a replaced delivery's standardization is not listed beside the current one; files without the flag stay
  it('lists only the standardizations of the current deliveries', () => {
    const files = [{ id: 3, current: true }, { id: 2, current: false }, { id: 1 }];
    expect(listedStandardizations(files).map((f) => f.id)).toEqual([3, 1]);
  });

  // the auditor views name every file, work papers included, by the spec's five values
  it.each([
    [file({ status: 'pending' }), 0, 'Pending'],
    [file({ status: 'processing' }), 0, 'Pending'],
    [file({ reviewed: true }), 0, 'Ready'],
    [file({ reviewed: true }), 1, 'Ready rerun'],
    [file({}), 0, 'In review'],
    [file({ disabled: true, reviewed: true }), 0, 'Not applicable'],
    [file({ kind: 'work_paper', status: 'done' }), 0, 'In review'],
    [file({ kind: 'work_paper', status: 'done', reviewed: true, released: true }), 0, 'Ready'],
    [file({ kind: 'work_paper', status: 'pending' }), 0, 'Pending'],
    [file({ kind: 'work_paper', status: 'error' }), 0, 'In review'],
  ])('auditor view: %j with rerun count %i is %s', (f, rerun, label) => {
    expect(auditorFileStatus(f, rerun)).toBe(label);
    expect(AUDITOR_FILE_STATUSES).toContain(auditorFileStatus(f, rerun));
  });

  // "Validation cell: Valid, Invalid, Not Received, Not Required."
  it.each([
    [null, 'Not Received'],
    [{ disabled: true, validationStatus: 'valid', status: 'assigned' }, 'Not Required'],
    [{ disabled: false, validationStatus: 'Valid', status: 'assigned' }, 'Valid'],
    [{ disabled: false, validationStatus: 'invalid', status: 'assigned' }, 'Invalid'],
    [{ disabled: false, validationStatus: null, status: 'error' }, 'Invalid'],
    [{ disabled: false, validationStatus: null, status: 'pending' }, 'Not Received'],
  ])('%j shows %s', (f, cell) => expect(validationCell(f)).toBe(cell));
});

describe('processes', () => {
  // "pending and running may be reset or cancelled; done; error."
  it.each([
    ['pending', true],
    ['running', true],
    ['done', false],
    ['error', false],
    ['suspended', false],
  ])('%s: reset and cancel offered = %s', (status, allowed) => {
    expect(canResetProcess(status)).toBe(allowed);
    expect(canCancelProcess(status)).toBe(allowed);
  });
});

describe("a workbook's sheets no layout matched", () => {
  const readMe = { sheet: 'Read Me', reason: 'No file layout of the TPA matches' };
  const notes = { sheet: 'Notes', reason: 'the sheet is empty' };
  it('are named in short for the Files tab, with the reasons in full for its hover, the CLI and the work paper', () => {
    expect(skippedSheetsLabel([readMe])).toBe("Sheet 'Read Me' not used");
    expect(skippedSheetsLabel([readMe, notes])).toBe("Sheets 'Read Me', 'Notes' not used");
    expect(skippedSheetsText([readMe, notes])).toBe("Sheet 'Read Me' not used: No file layout of the TPA matches; Sheet 'Notes' not used: the sheet is empty");
    expect(skippedSheetsLabel(undefined)).toBe('');
    expect(skippedSheetsText([])).toBe('');
  });
});
