/**
 * Typed calls of chasing (docs/chasing.md): contacts of TPAs and clients, a TPA's reminder
 * schedule, a fund's chases with 'Return to TPA' and cancel, and the signed-in Client or TPA
 * user's own chases with the answer upload and the failing rows. The answers' shapes are the
 * chasing services' (imported as types only).
 */
import type { ContactOwners, ContactView } from '../../../server/services/chasing/contacts';
import type { ChaseView } from '../../../server/services/chasing/chases';
import type { ChaseSchedule } from '../../../server/services/chasing/schedule';
import { call } from './client';
import { downloadGet } from './download';

export type { ChaseView, ContactOwners, ContactView, ChaseSchedule };
/** One state change on a chase's timeline. */
export type ChaseEvent = ChaseView['events'][number];

/** The screens show every failure next to what failed: no default notification. */
const quiet = { suppressError: true } as const;

/** What a contact form sends. */
export interface ContactFields {
  full_name: string;
  email: string;
  role: string;
  time_zone: string | null;
}

/** The TPAs and clients, with their contact counts. */
export const fetchContactOwners = () => call('GET /api/v2.0/contacts/owners', {}, quiet) as Promise<ContactOwners>;
/** The contacts of one TPA (by id) or one client (by name). */
export const fetchContacts = (of: { administratorId?: number; client?: string }) =>
  call('GET /api/v2.0/contacts', { query: of }, quiet) as Promise<ContactView[]>;
/** Adds a contact; a 400 names each field in error (`errors: [{column, message}]`). */
export const addContact = (of: { administratorId?: number; client?: string }, fields: ContactFields) =>
  call('POST /api/v2.0/contacts', { body: { ...of, ...fields } }, quiet) as Promise<ContactView>;
/** Changes a contact's name, address, role or time zone. */
export const saveContact = (id: number, fields: ContactFields) =>
  call('POST /api/v2.0/contacts/:id', { params: { id }, body: fields }, quiet) as Promise<ContactView>;
/** Removes a contact. */
export const removeContact = (id: number) => call('DELETE /api/v2.0/contacts/:id', { params: { id } }, quiet);

/** A TPA's reminder schedule: its own, else the install's. */
export const fetchSchedule = (administratorId: number) =>
  call('GET /api/v2.0/administrators/:id/chase-schedule', { params: { id: administratorId } }, quiet) as Promise<ChaseSchedule>;
/** Sets a TPA's own schedule (offsets '-3,0,3,7'), or with `reset` goes back to the install's. */
export const saveSchedule = (administratorId: number, body: { offsets?: string; escalateFrom?: number; enabled?: boolean; reset?: boolean }) =>
  call('POST /api/v2.0/administrators/:id/chase-schedule', { params: { id: administratorId }, body }, quiet) as Promise<ChaseSchedule>;

/** A fund's chases, open ones first, each with its timeline (newest first). */
export const fetchFundChases = (fundId: number) => call('GET /api/v2.0/fund/:id/chases', { params: { id: fundId } }, quiet) as Promise<ChaseView[]>;
/** Returns a file (or, without `fundFileId`, the whole fund) to the TPA with a reason. */
export const returnToTpa = (fundId: number, reason: string, fundFileId?: number | null) =>
  call('POST /api/v2.0/fund/:id/return', { params: { id: fundId }, body: { reason, fundFileId: fundFileId ?? null } }, quiet) as Promise<ChaseView>;
/** Cancels an open chase. */
export const cancelChase = (id: number, note?: string) =>
  call('POST /api/v2.0/chases/:id/cancel', { params: { id }, body: { note } }, quiet) as Promise<ChaseView>;

/** The signed-in user's open chases (optionally of one fund), and those closed in the last 30 days. */
export const fetchMyChases = (fundId?: number) =>
  call('GET /api/v2.0/chases/mine', { query: { ...(fundId ? { fund: fundId } : {}), recent: '1' } }, quiet) as Promise<ChaseView[]>;
/** Answers a chase with the missing or corrected file; it runs through the pipeline. */
export function answerChase(id: number, file: File): Promise<{ chase: ChaseView; importId: number }> {
  const form = new FormData();
  form.append('upload', file, file.name);
  return call('POST /api/v2.0/chases/:id/answer', { params: { id }, body: form }, { ...quiet, suppressSuccess: true }) as Promise<{
    chase: ChaseView;
    importId: number;
  }>;
}
/** Saves a chase's failing rows as CSV. */
export const downloadEvidence = (id: number) => downloadGet(`/chases/${id}/evidence.csv`, `chase-${id}.csv`);
