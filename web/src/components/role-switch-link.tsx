/** 'Switch to auditor' / 'Switch to delivery team': calls the role switch and goes home. */
import { useState } from 'react';
import type { View } from '../api/types';
import { switchView } from '../state/session-actions';

export function RoleSwitchLink({ view, label, icon, compact = false }: { view: View; label: string; icon: string; compact?: boolean }) {
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await switchView(view);
    } catch {
      // the API client already notified or redirected
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="fa-switch-link"
      onClick={() => void onClick()}
      disabled={busy}
      aria-label={compact ? label : undefined}
      title={compact ? label : undefined}
    >
      <i className={busy ? 'pi pi-spin pi-spinner' : icon} aria-hidden="true" />
      {!compact && <span>{label}</span>}
    </button>
  );
}
