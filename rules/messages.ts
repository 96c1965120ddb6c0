/** The spec's message texts (sections 2, 5 and 8 of both documents), written once. */
export const MESSAGES = {
  /** Bulk status warning: some selected funds did not move. */
  unchangedWarning: 'Warning! Funds marked with * cannot move into the state you have selected. Reselect separately and retry.',
  /** Auditor listing Delete confirmation. */
  auditorDeleteConfirmation: 'This will permanently remove these fund requests',
  /** TPA / custom mapping name rule. */
  invalidName: 'Provided name is invalid. Name can contain only lowercase characters, numbers or underscore sign. Maximum length is 50 characters.',
  /** Client name rule. */
  invalidClientName: 'Provided name is invalid. Only alphanumeric, underscore and white spaces allowed. Maximum length is 300 characters.',
  /** Reason for a mapping missing or too long. */
  reasonRequired: 'A reason is required (at most 50 characters).',
  /** A TPA name that exists. */
  administratorExists: 'Administrator already exist',
  /** Mapping file name not one of the mapping types. */
  invalidMappingFile: 'Invalid file - Please upload a .csv file that matches one of the mapping names.',
  /** Fund save failed. */
  actionFailed: 'Action failed',
  /** Fund validation list heading. */
  validationErrors: 'You have validation errors',
  /** Unsaved changes question. */
  unsavedTitle: 'You have made changes',
  unsavedDetail: 'They will be lost if not saved',
  /** Delete mapping failed. */
  deleteMappingFailed: 'Something went wrong when we tried to delete the mapping',
  /** Generic failure. */
  anErrorOccurred: 'An error occurred',
  /** Export request queued. */
  queued: 'Successfully added to Queue.',
  queuedHint: 'View the download queue tab to see what is available.',
} as const;

/** Delivery Delete confirmation, by number of selected funds. */
export function deliveryDeleteConfirmation(count: number): string {
  return count === 1
    ? 'This will permanently remove this fund request, are you REALLY sure?'
    : `This will permanently remove these ${count} fund requests, are you REALLY sure?`;
}

/** Duplicate custom mapping description. */
export function duplicateMappingMessage(name: string): string {
  return `Custom mapping ${name} already exist. Please choose different name.`;
}

/** Unknown fund. */
export function noSuchFundMessage(id: number | string): string {
  return `No such fund request with id: ${id}`;
}

/** Save errors footer when more than five exist. */
export function moreSaveErrorsFooter(total: number): string {
  return `Presenting 5 out of ${total} errors. Please fix values and try again.`;
}

/**
 * Distinct, non-empty texts joined by '; ' (spec section 8): a message that already lists the
 * warnings (joined by '; ') and the warnings themselves show each warning once.
 */
export function joinMessages(texts: ReadonlyArray<string | null | undefined>): string {
  const parts = texts.flatMap((t) => (t ?? '').split('; ')).map((t) => t.trim());
  return [...new Set(parts.filter(Boolean))].join('; ');
}
