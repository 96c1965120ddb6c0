/** Centered card used by the sign-in and message pages (no frame, no session needed). */
import type { ReactNode } from 'react';

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="fa-auth">
      <main className="fa-auth-card" id="fa-main">
        <div className="fa-auth-brand">Fund Audit</div>
        {children}
      </main>
    </div>
  );
}
