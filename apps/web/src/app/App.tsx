import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  Component,
  type ComponentType,
  type ReactNode,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
} from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import Home from '../features/home/Home.tsx';
import { NoticeDialog } from '../features/notices/NoticeDialog.tsx';
import { Announcer } from '../shell/Announcer.tsx';
import { DesktopShell } from '../shell/DesktopShell.tsx';
import { MobileShell } from '../shell/MobileShell.tsx';
import { Loading } from '../ui/PageState.tsx';
import { ApiFailure, callApi, setSessionExpiredHandler } from './api.ts';
import { bootShowsWelcome, endBoot } from './boot.ts';
import { applyRootFont, isDesktopLayout } from './layout.ts';
import { lazyPage } from './lazyPage.tsx';
import { connectQuotes } from './quotes.ts';
import { loginAfterExpiry } from './returnTo.ts';
import { loadPassShell, ROUTES, type RouteEntry, routeMeta } from './routes.ts';
import { getState, logIn, setState, useClientState } from './state.ts';

/**
 * Focus management (shell/keyboard.ts) is its own chunk, fetched at start beside the page: nothing
 * of it is needed to draw the home page, and it is there by the first navigation.
 */
let focus: typeof import('../shell/keyboard.ts') | null = null;
const focusLoaded = import('../shell/keyboard.ts').then((module) => {
  focus = module;
  return module;
});

const Upcoming = lazyPage(() => import('../shell/Upcoming.tsx'));

/** Login, register and reset have a shell of their own, loaded with them. */
const PassShell = lazyPage(loadPassShell);

/** Each route's chunk, to fetch before the first render when the page opens on it. */
const PRELOADS = new Map<RouteEntry, () => Promise<unknown>>();

/** What the router shows for a route of the list: one lazy component per screen, made once. */
function routeElement(route: RouteEntry): ReactNode {
  const { view } = route;
  if (view === 'home') return <Home />;
  if (view === 'upcoming') return <Upcoming />;
  if ('redirect' in view) return <Navigate to={view.redirect} replace />;
  const Page = lazyPage(view.load);
  PRELOADS.set(route, () =>
    Promise.all([Page.preload(), route.chrome === 'pass' ? PassShell.preload() : null]),
  );
  return <Page />;
}

const ROUTE_ELEMENTS = ROUTES.map((route) => ({ path: route.path, element: routeElement(route) }));

/**
 * Fetches the chunks of the screen at `pathname` (boot.js has them on the way already), so the
 * first render draws it; settles, whatever happens, within `waitMs`: a slow or failed chunk is
 * then the screen's own loading or error state.
 */
export function preloadRoute(pathname: string, waitMs = 1000): Promise<void> {
  const preload = PRELOADS.get(routeMeta(pathname));
  if (!preload) return Promise.resolve();
  return new Promise<void>((done) => {
    const timer = setTimeout(done, waitMs);
    void preload()
      .catch(() => undefined)
      .then(() => {
        clearTimeout(timer);
        done();
      });
  });
}

function ChunkFailed() {
  const { t } = useTranslation();
  return (
    <div className="page-state error" role="alert">
      <p>{t('state.chunkLoad')}</p>
      <button type="button" className="button ghost" onClick={() => window.location.reload()}>
        {t('action.retry')}
      </button>
    </div>
  );
}

/** A page whose script fails to load (or throws) shows a localized error instead of a blank screen. */
class PageBoundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <ChunkFailed /> : this.props.children;
  }
}

function Boundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <PageBoundary resetKey={pathname}>{children}</PageBoundary>;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => count < 2 && !(error instanceof ApiFailure && error.code > 0),
      refetchOnWindowFocus: false,
    },
  },
});

/** Every navigation scrolls to the top, moves focus to the page and names the page in the title. */
function NavigationEffects() {
  const { pathname, search } = useLocation();
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Focus never drops to the body when the focused control is disabled, hidden or removed, and
  // the scroll padding knows the bars' sizes.
  useEffect(() => {
    let undo: (() => void) | null = null;
    let mounted = true;
    void focusLoaded.then((module) => {
      if (!mounted) return;
      const unguard = module.installFocusGuard();
      const unwatch = module.watchBarSizes();
      undo = () => {
        unguard();
        unwatch();
      };
    });
    return () => {
      mounted = false;
      undo?.();
    };
  }, []);
  useEffect(() => {
    setSessionExpiredHandler(() => {
      // Told why on the login page, and brought back to this page after logging in (spec §4).
      if (window.location.pathname !== '/pass/login')
        navigate(loginAfterExpiry(window.location), { replace: true });
    });
  }, [navigate]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation by design
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
  useEffect(() => {
    document.title = `${t(`title.${routeMeta(pathname).title}`)} · ${t('brand')}`;
  }, [pathname, t]);
  // After an in-app navigation (not the first page), focus moves to the new page's heading once it
  // has rendered, and the shell's live region names the page by its own title (WCAG 2.4.3, 4.1.3).
  // Laid out in the commit that replaced the page, so the focus guard does not move focus meanwhile.
  const first = useRef(true);
  const title = useRef('');
  title.current = t(`title.${routeMeta(pathname).title}`);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page by design
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    return focus?.arriveAtPage(document.activeElement, () => title.current);
  }, [pathname]);
  return null;
}

/**
 * The layout follows the window's width (app/layout.ts): a window resized across the desktop width
 * switches the shell, in the frame of the resize, with the root's `data-layout` and font size.
 */
function FollowLayout() {
  const viewWidth = useClientState((s) => s.viewWidth);
  const isDesktop = useClientState((s) => s.isDesktop);
  useLayoutEffect(() => {
    const desktop = isDesktopLayout(getState().isPhone, viewWidth);
    if (desktop !== getState().isDesktop) setState({ isDesktop: desktop });
  }, [viewWidth]);
  useLayoutEffect(() => {
    document.documentElement.dataset.layout = isDesktop ? 'desktop' : 'mobile';
    applyRootFont(window.innerWidth, isDesktop);
  }, [isDesktop]);
  return null;
}

/** The market feed (spec §4) opens once the first screen is committed, not before it is drawn. */
function QuoteFeed() {
  useEffect(connectQuotes, []);
  return null;
}

/** On start, with a stored login flag, refresh the user info (spec §4); a 401 logs out. */
function RefreshUser() {
  useEffect(() => {
    const state = getState();
    if (!state.isLogin || !state.token) return;
    const token = state.token;
    callApi('getUserInfo', {})
      .then((user) => logIn(token, user))
      .catch(() => undefined);
  }, []);
  return null;
}

function Shell({ children }: { children: ReactNode }) {
  const isDesktop = useClientState((s) => s.isDesktop);
  const { pathname } = useLocation();
  if (routeMeta(pathname).chrome === 'pass')
    return (
      <Suspense fallback={<Loading />}>
        <PassShell>{children}</PassShell>
      </Suspense>
    );
  return isDesktop ? <DesktopShell>{children}</DesktopShell> : <MobileShell>{children}</MobileShell>;
}

/**
 * The first paint goes with the app's first commit, unless it is the welcome board, which the
 * app's board ends when it opens (or, if its chunk cannot load, this).
 */
function EndBoot() {
  useLayoutEffect(() => {
    const state = getState();
    if (!bootShowsWelcome() || !state.isPhone || state.welcomeShown) endBoot();
    else import('../shell/WelcomeBoard.tsx').catch(endBoot);
  }, []);
  return null;
}

/**
 * The app, in the browser's router; the build draws first paints in a static one (prerender.tsx),
 * which stays out of the app's own chunks.
 */
export function App({ Router = BrowserRouter }: { Router?: ComponentType<{ children: ReactNode }> }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Router>
        <EndBoot />
        <FollowLayout />
        <NavigationEffects />
        <RefreshUser />
        <QuoteFeed />
        <NoticeDialog />
        <Announcer />
        <Shell>
          <Boundary>
            <Suspense fallback={<Loading />}>
              <Routes>
                {ROUTE_ELEMENTS.map(({ path, element }) => (
                  <Route key={path} path={path} element={element} />
                ))}
              </Routes>
            </Suspense>
          </Boundary>
        </Shell>
      </Router>
    </QueryClientProvider>
  );
}
