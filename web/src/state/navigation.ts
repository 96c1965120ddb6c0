/** Navigation store: page title, sider state, remembered route, and navigation outside React. */
import { proxy } from 'valtio';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { LAST_ROUTE_KEY, readSession, writeSession } from './storage';
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

/** Installs (or with null removes) the current page's leave guard; answers a remover. */
export function setLeaveGuard(guard: LeaveGuard | null): () => void {
  leaveGuard = guard;
  return () => {
    if (leaveGuard === guard) leaveGuard = null;
  };
}

/** Runs `proceed` unless the current page's guard takes over (it then asks first). */
export function leaveThen(proceed: () => void): void {
  if (!leaveGuard || !leaveGuard(proceed)) proceed();
}

/** Navigates the SPA (usable from the API client and stores). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  browserNavigate(to, { replace: options.replace ?? false });
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
