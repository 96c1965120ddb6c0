/**
 * The state of the delivery Fund details page: the fund as `GET /fund/{id}` answers it (or a blank
 * one on `/fund/create`), the draft of its editable fields, the changes, and save (`POST
 * /fund/validate`, then `POST /fund`). The form logic is the auditor modal's (fund-form.ts) over
 * the delivery fields (delivery-fields.ts); every rule is checked again by the server.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchFundDetails, saveFund, validateFund } from '../../../api/auditor';
import type { FundDetails, FundError } from '../../../api/auditor-types';
import { ApiError } from '../../../api/errors';
import { socketEvents } from '../../../state/socket';
import { createFund, validateNewFund } from '../../../api/fund-activity';
import { notifyError } from '../../../state/notifications';
import { changedFields, draftOf, type Draft } from '../../../components/fund-details/fund-form';
import { blankFund, DELIVERY_FIELDS, newFundPayload } from './delivery-fields';

/** Quiet time after the last live event before the fund is loaded again (a rerun sends a burst of them). */
const LIVE_RELOAD_MS = 400;

const PRICE_KEYS = ['price_type_1', 'price_type_2', 'price_type_3', 'price_type_4', 'price_source_1', 'price_source_2', 'price_source_3'];

/** What the page shows: a fund by id, a new fund, or nothing to load (an id that is not one). */
export type FundTarget = number | 'new' | null;

/** Loads and edits one fund, or starts a new one. */
export function useFundDetails(target: FundTarget) {
  const creating = target === 'new';
  const [fund, setFund] = useState<FundDetails | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loadError, setLoadError] = useState<{ status: number; message: string } | null>(null);
  const [errors, setErrors] = useState<FundError[]>([]);
  const [saving, setSaving] = useState(false);
  // the id whose details are on screen
  const loaded = useRef<number | null>(null);

  const reload = useCallback(() => {
    if (typeof target !== 'number') return;
    fetchFundDetails(target).then(
      (d) => {
        loaded.current = target;
        setFund(d);
        setLoadError(null);
        // keep the user's edits over a background reload (a new id starts from a null draft)
        setDraft((old) => old ?? draftOf(d, DELIVERY_FIELDS));
      },
      (err: ApiError) => {
        setLoadError({ status: err.status ?? 0, message: err.message || 'The fund request could not be loaded' });
        // the page shows a first load's failure in place of the form; a later one (the form stays) as a notification
        if (loaded.current === target) notifyError(err);
      },
    );
  }, [target]);

  // a rerun (its processes, the files it writes, the fund's statuses) refreshes the page on any tab,
  // without a reload; the user's unsaved edits stay (see `reload`)
  useEffect(() => {
    if (typeof target !== 'number') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(reload, LIVE_RELOAD_MS);
    };
    const offs = [
      socketEvents.on('process', (p) => (p as { fundRequestId?: number } | null)?.fundRequestId === target && later()),
      socketEvents.on('file', (f) => (f as { fundRequestId?: number } | null)?.fundRequestId === target && later()),
      socketEvents.on('fund-request', (e) => (e as { ids?: number[] } | null)?.ids?.includes(target) && later()),
    ];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [reload, target]);

  useEffect(() => {
    const blank = target === 'new' ? blankFund() : null;
    setFund(blank);
    setDraft(blank ? draftOf(blank, DELIVERY_FIELDS) : null);
    setErrors([]);
    setLoadError(null);
    reload();
  }, [reload, target]);

  const changes = useMemo(() => {
    if (!fund || !draft) return {};
    const out = changedFields(fund, draft, DELIVERY_FIELDS);
    // the delivery team sets the administrator, unless the server locks it
    if (draft.administrator_code !== undefined && (draft.administrator_code ?? null) !== (fund.administrator?.code ?? null))
      out.administrator = draft.administrator_code;
    return out;
  }, [fund, draft]);
  const dirty = Object.keys(changes).length > 0;

  const change = (key: string, value: unknown) => {
    setErrors([]);
    setDraft((d) => {
      if (!d) return d;
      const next: Draft = { ...d, [key]: value };
      if (key === 'external_valuations' && value !== 'Y') for (const k of PRICE_KEYS) next[k] = null;
      if (key === 'connected_audit' && value !== true) next.RTTPlus = next.RTTMinus = null;
      return next;
    });
  };

  /** Validates and saves (creates) the fund; answers the saved fund, or null with `errors` set. */
  const save = async (): Promise<FundDetails | null> => {
    if (!fund || !draft || !dirty) return null;
    setSaving(true);
    try {
      if (creating) {
        const payload = newFundPayload(draft);
        const found = await validateNewFund(payload);
        if (found.length) return (setErrors(found), null);
        return await createFund(payload);
      }
      const found = await validateFund(fund.id, changes);
      if (found.length) return (setErrors(found), null);
      const saved = await saveFund(fund.id, changes);
      setFund(saved);
      setDraft(draftOf(saved, DELIVERY_FIELDS));
      setErrors([]);
      return saved;
    } catch (err) {
      const e = err as ApiError;
      setErrors(e.errors?.length ? e.errors : [e.message]);
      return null;
    } finally {
      setSaving(false);
    }
  };

  /** Drops the changes: back to the fund as loaded. */
  const discard = () => {
    if (fund) setDraft(draftOf(fund, DELIVERY_FIELDS));
    setErrors([]);
  };

  return { fund, draft, creating, loadError, errors, saving, dirty, changes, change, save, discard, reload };
}
