/** Navigation store: page title, sider state, remembered route, and navigation outside React. */
import { proxy } from 'valtio';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { LAST_ROUTE_KEY, readSession, writeSession } from './storage';
import { withBase } from '../api/base-path';
import { shouldRememberRoute } from '../route-table';

export const navigation = proxy({
  /** Title of the current page, shown in the header. */
  title: '',
  /** Whether the delivery sider is collapsed (width 45 instead of 175). */
  siderCollapsed: false,
});

/**
 * A page's question before the user leaves it (unsaved changes): returns true when it took over,
 * i.e. it will ask and call `proceed` itself if the user agrees. One page at a time.
 */
type LeaveGuard = (proceed: () => void) => boolean;
let leaveGuard: LeaveGuard | null = null;

/*
 * The browser's Back button: while a guard is installed, the page's history entry is followed by a
 * "trap" entry of the same address. Back leaves the trap for the page's own entry: the address does
 * not change, so the router keeps the page (and its unsaved values), and the guard asks. Keep
 * editing pushes the trap again; leaving goes back past the page's entry (two steps from the
 * re-armed trap). When the guard goes away (saved, discarded) the trap is popped again, and a
 * navigation from the trap replaces it instead of piling up behind it.
 */
const TRAP = 'faLeaveTrap';
let ignorePops = 0;
let leaving = false;
let listening = false;

const onTrap = () => typeof history !== 'undefined' && Boolean((history.state as Record<string, unknown> | null)?.[TRAP]);

function armTrap(): void {
  history.pushState({ [TRAP]: true }, '', location.href);
}

function onPopState(): void {
  if (ignorePops > 0) {
    ignorePops--;
    return;
  }
  if (leaving) {
    leaving = false;
    return;
  }
  if (!leaveGuard || onTrap()) return;
  // Back from the trap: still on the page; ask, with the trap armed again for Keep editing
  armTrap();
  const proceed = () => {
    leaveGuard = null;
    leaving = true;
    // if nothing is two steps back (a tab opened on this page), stop waiting for the pop
    setTimeout(() => (leaving = false), 1000);
    history.go(-2);
  };
  if (!leaveGuard(proceed)) proceed();
}

/** Installs (or with null removes) the current page's leave guard; answers a remover. */
export function setLeaveGuard(guard: LeaveGuard | null): () => void {
  leaveGuard = guard;
  if (typeof window !== 'undefined') {
    if (!listening) {
      window.addEventListener('popstate', onPopState);
      listening = true;
    }
    if (guard && !onTrap()) armTrap();
    else if (!guard && onTrap() && !leaving) {
      ignorePops++;
      history.back();
    }
  }
  return () => {
    if (leaveGuard === guard) leaveGuard = null;
  };
}

/** Runs `proceed` unless the current page's guard takes over (it then asks first). */
export function leaveThen(proceed: () => void): void {
  if (!leaveGuard || !leaveGuard(proceed)) proceed();
}

/** Navigates the SPA to a route path (under the base path; usable from the API client and stores); from a Back trap it replaces the trap. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  browserNavigate(withBase(to), { replace: (options.replace ?? false) || onTrap() });
}

/** Sets the header page title and the document title. */
export function setPageTitle(title: string): void {
  navigation.title = title;
  if (typeof document !== 'undefined') document.title = title ? `${title} - Fund Audit` : 'Fund Audit';
}

/** Remembers the route for after sign-in, unless it is an auth or message page. */
export function rememberRoute(pathWithSearch: string): void {
  const path = pathWithSearch.split(/[?#]/)[0] ?? '/';
  if (shouldRememberRoute(path)) writeSession(LAST_ROUTE_KEY, pathWithSearch);
}

/** The route to continue to after sign-in ('/' when none was remembered). */
export function routeAfterSignIn(): string {
  const stored = readSession(LAST_ROUTE_KEY);
  const path = stored?.split(/[?#]/)[0];
  return stored && path && shouldRememberRoute(path) ? stored : '/';
}
