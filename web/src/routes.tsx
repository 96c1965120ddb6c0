/**
 * Wouter routes of the spec's route table. Sign-in pages render on their own; every other path goes
 * through the protected area, which applies `decideAccess` and renders the page in the frame of the
 * user's role. Pages load lazily, one chunk per area; the delivery Dashboard, the page a delivery
 * user lands on, has a chunk of its own so the first load does not carry the other delivery pages.
 */
import { lazy, Suspense, useEffect, useLayoutEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { SIGN_IN_BLOCKED_PATH } from '../../rules/access';
import { BASE_PATH } from './api/base-path';
import { useSnapshot } from 'valtio';
import { AuditorFrame, DeliveryFrame } from './components/frames';
import { PageLoading } from './components/page-loading';
import { decideAccess, frameForRole, PAGE_TITLES, type Frame, type PageKey } from './route-table';
import { trackNavigation } from './api/endpoints';
import { rememberRoute, setPageTitle } from './state/navigation';
import { isSessionReady, session } from './state/session';

type AnyPage = LazyExoticComponent<ComponentType<{ id?: string }>>;

const authArea = () => import('./pages/auth/index');
const auditorArea = () => import('./pages/auditor/index');
const deliveryArea = () => import('./pages/delivery/index');
const dashboardArea = () => import('./pages/delivery/dashboard-page');
const chasesArea = () => import('./pages/chases/index');
const scorecardsArea = () => import('./pages/scorecards/index');

/** Starts loading the chunk of a frame's landing page (called once sign-in is under way). */
export function preloadFrame(frame: Frame): void {
  void (frame === 'auditor' ? auditorArea() : dashboardArea()).catch(() => undefined);
}

function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType<{ id?: string }>): AnyPage {
  return lazy(() => load().then((m) => ({ default: pick(m) })));
}

const RedeemPage = page(authArea, (m) => m.RedeemPage);
const LoginPage = page(authArea, (m) => m.LoginPage);
const AuthenticatePage = page(authArea, (m) => m.AuthenticatePage);
const UnauthorizedPage = page(authArea, (m) => m.UnauthorizedPage);
const SignupPage = page(authArea, (m) => m.SignupPage);
const NotFoundPage = page(authArea, (m) => m.NotFoundPage);
const SignInBlockedPage = page(authArea, (m) => m.SignInBlockedPage);

/** The component of each page key. */
const PAGES: Record<PageKey, AnyPage> = {
  'auditor-home': page(auditorArea, (m) => m.AuditorHomePage),
  'data-platform': page(auditorArea, (m) => m.DataPlatformPage),
  tools: page(auditorArea, (m) => m.ToolsPage),
  wiki: page(auditorArea, (m) => m.WikiPage),
  dashboard: page(dashboardArea, (m) => m.DashboardPage),
  'fund-details': page(deliveryArea, (m) => m.FundDetailsPage),
  'bulk-upload': page(deliveryArea, (m) => m.BulkUploadPage),
  'dev-tools': page(deliveryArea, (m) => m.DevToolsPage),
  'key-generator': page(deliveryArea, (m) => m.KeyGeneratorPage),
  'file-list': page(deliveryArea, (m) => m.FileListPage),
  'test-runner': page(deliveryArea, (m) => m.TestRunnerPage),
  import: page(deliveryArea, (m) => m.ImportPage),
  export: page(deliveryArea, (m) => m.ExportPage),
  'pbi-inputs': page(deliveryArea, (m) => m.PbiInputsPage),
  mappings: page(deliveryArea, (m) => m.MappingsPage),
  contacts: page(deliveryArea, (m) => m.ContactsPage),
  chases: page(chasesArea, (m) => m.MyChasesPage),
  scorecards: page(scorecardsArea, (m) => m.ScorecardsPage),
};

/** Every non-public path: protection, remembered route, frame by role, lazy page. */
function ProtectedArea() {
  const [location] = useLocation();
  const search = useSearch();
  const snap = useSnapshot(session);
  const decision = decideAccess({
    path: location,
    hasToken: Boolean(snap.token),
    sessionReady: isSessionReady(snap),
    role: snap.user?.role,
    config: snap.config,
  });
  const remember = decision.kind === 'render' || decision.remember;
  const fullPath = search ? `${location}?${search}` : location;

  useEffect(() => {
    if (remember) rememberRoute(fullPath);
  }, [remember, fullPath]);

  // A default title at once (layout effect: runs before the page's own title effect).
  const pageKey = decision.kind === 'render' ? decision.page : null;
  useLayoutEffect(() => {
    if (pageKey) setPageTitle(PAGE_TITLES[pageKey]);
  }, [pageKey]);
  // page information for analytics (spec section 7, POST /data-layer/navigate)
  useEffect(() => {
    if (pageKey) void trackNavigation(pageKey, location);
  }, [pageKey, location]);

  if (decision.kind === 'redirect') return <Redirect to={decision.to} replace />;
  const Page = PAGES[decision.page];
  const Frame = frameForRole(snap.user?.role) === 'auditor' ? AuditorFrame : DeliveryFrame;
  return (
    <Frame>
      <Suspense fallback={<PageLoading />}>
        <Page key={decision.page} id={decision.params.id} />
      </Suspense>
    </Frame>
  );
}

/** The application's routes, under the base path the page was served at. */
export function AppRoutes() {
  return (
    <Router base={BASE_PATH}>
      <Suspense fallback={<PageLoading />}>
        <Switch>
          <Route path="/redeemToken">
            <RedeemPage />
          </Route>
          <Route path="/redeemToken/*">
            <RedeemPage />
          </Route>
          <Route path="/login">
            <LoginPage />
          </Route>
          <Route path="/authenticate">
            <AuthenticatePage />
          </Route>
          <Route path="/unauthorized">
            <UnauthorizedPage />
          </Route>
          <Route path="/signup">
            <SignupPage />
          </Route>
          <Route path="/404">
            <NotFoundPage />
          </Route>
          <Route path={SIGN_IN_BLOCKED_PATH}>
            <SignInBlockedPage />
          </Route>
          <Route>
            <ProtectedArea />
          </Route>
        </Switch>
      </Suspense>
    </Router>
  );
}
