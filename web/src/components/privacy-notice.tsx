/**
 * The privacy notice dialog: scrollable text; Accept is enabled only once scrolled within 50 px of
 * the bottom; Reject is always available.
 */
import { useCallback, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { PrivacyContent } from './privacy-content';
import { isScrolledNearBottom } from './privacy-scroll';

export interface PrivacyNoticeProps {
  onAccept: () => void;
  onReject: () => void;
  busy?: boolean;
}

export function PrivacyNotice({ onAccept, onReject, busy = false }: PrivacyNoticeProps) {
  const [atBottom, setAtBottom] = useState(false);
  const boxRef = useRef<HTMLDivElement | null>(null);

  const check = useCallback(() => {
    const box = boxRef.current;
    if (box && isScrolledNearBottom(box)) setAtBottom(true);
  }, []);

  // Watch the box size too: a notice that fits without scrolling can be accepted at once.
  const observer = useRef<ResizeObserver | null>(null);
  const attach = useCallback(
    (el: HTMLDivElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      boxRef.current = el;
      if (!el) return;
      check();
      if (typeof ResizeObserver !== 'undefined') {
        observer.current = new ResizeObserver(check);
        observer.current.observe(el);
      }
    },
    [check],
  );

  const footer = (
    <div className="fa-privacy-actions">
      <Button type="button" label="Reject" severity="secondary" outlined onClick={onReject} disabled={busy} />
      <Button
        type="button"
        label="Accept"
        onClick={onAccept}
        disabled={!atBottom || busy}
        loading={busy}
        title={atBottom ? undefined : 'Scroll to the end of the notice to accept'}
      />
    </div>
  );

  return (
    <Dialog
      visible
      modal
      closable={false}
      draggable={false}
      resizable={false}
      header="Privacy notice"
      footer={footer}
      onHide={onReject}
      style={{ width: 'min(720px, 95vw)' }}
      className="fa-privacy-dialog"
    >
      <div
        ref={attach}
        className="fa-privacy-scroll"
        tabIndex={0}
        role="document"
        aria-label="Privacy notice text"
        data-testid="privacy-scroll"
        onScroll={check}
      >
        <PrivacyContent />
      </div>
    </Dialog>
  );
}
