/**
 * The state of the delivery Fund details page: the fund as `GET /fund/{id}` answers it, the draft
 * of its editable fields, the changes, and save (`POST /fund/validate`, then `POST /fund`). The
 * form logic is the auditor modal's (fund-form.ts); every rule is checked again by the server.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { fetchFundDetails, saveFund, validateFund } from '../../../api/auditor';
import type { FundDetails, FundError } from '../../../api/auditor-types';
import { ApiError } from '../../../api/errors';
import { changedFields, draftOf, type Draft } from '../../auditor/fund-details/fund-form';

const PRICE_KEYS = ['price_type_1', 'price_type_2', 'price_type_3', 'price_type_4', 'price_source_1', 'price_source_2', 'price_source_3'];

/** Loads and edits one fund; `id` null for none. */
export function useFundDetails(id: number | null) {
  const [fund, setFund] = useState<FundDetails | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FundError[]>([]);
  const [saving, setSaving] = useState(false);

  const reload = useCallback(() => {
    if (id === null) return;
    fetchFundDetails(id).then(
      (d) => {
        setFund(d);
        setLoadError(null);
        // keep the user's edits over a background reload (a new id starts from a null draft)
        setDraft((old) => old ?? draftOf(d));
      },
      (err: ApiError) => setLoadError(err.message || 'The fund request could not be loaded'),
    );
  }, [id]);

  useEffect(() => {
    setFund(null);
    setDraft(null);
    setErrors([]);
    setLoadError(null);
    reload();
  }, [reload]);

  const changes = useMemo(() => {
    if (!fund || !draft) return {};
    const out = changedFields(fund, draft);
    // the administrator is editable here (delivery), unless the server locks it
    if (draft.administrator_code !== undefined && draft.administrator_code !== (fund.administrator?.code ?? null)) out.administrator = draft.administrator_code;
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

  /** Validates and saves the changes; answers whether it saved. */
  const save = async (): Promise<boolean> => {
    if (!fund || !dirty) return false;
    setSaving(true);
    try {
      const found = await validateFund(fund.id, changes);
      if (found.length) {
        setErrors(found);
        return false;
      }
      const saved = await saveFund(fund.id, changes);
      setFund(saved);
      setDraft(draftOf(saved));
      setErrors([]);
      return true;
    } catch (err) {
      const e = err as ApiError;
      setErrors(e.errors?.length ? e.errors : [e.message]);
      return false;
    } finally {
      setSaving(false);
    }
  };

  const discard = () => {
    if (fund) setDraft(draftOf(fund));
    setErrors([]);
  };

  return { fund, draft, loadError, errors, saving, dirty, changes, change, save, discard, reload };
}
