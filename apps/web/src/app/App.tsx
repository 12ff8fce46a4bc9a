import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Component, type ComponentType, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import Home from '../features/home/Home.tsx';
import { NoticeDialog } from '../features/notices/NoticeDialog.tsx';
import { DesktopShell } from '../shell/DesktopShell.tsx';
import { MobileShell } from '../shell/MobileShell.tsx';
import { Loading } from '../ui/PageState.tsx';
import { ApiFailure, callApi, setSessionExpiredHandler } from './api.ts';
import { loginAfterExpiry } from './returnTo.ts';
import { routeMeta } from './routes.ts';
import { getState, logIn, useClientState } from './state.ts';

/** The chunk load timeout of spec §9. */
const CHUNK_TIMEOUT_MS = 120_000;

function lazyPage<T extends ComponentType>(load: () => Promise<{ default: T }>) {
  return lazy(
    () =>
      new Promise<{ default: T }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_TIMEOUT_MS);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      }) as Promise<{ default: ComponentType }>,
  );
}

const Upcoming = lazyPage(() => import('../shell/Upcoming.tsx'));
const Detail = lazyPage(() => import('../features/content/Detail.tsx'));
const Introduction = lazyPage(() => import('../features/content/Introduction.tsx'));
const Login = lazyPage(() => import('../features/identity/Login.tsx'));
const LoginCallback = lazyPage(() => import('../features/identity/LoginCallback.tsx'));
const Register = lazyPage(() => import('../features/identity/Register.tsx'));
const Reset = lazyPage(() => import('../features/identity/Reset.tsx'));
const Profile = lazyPage(() => import('../features/account/Profile.tsx'));
const Balance = lazyPage(() => import('../features/ledger/Balance.tsx'));
const Transactions = lazyPage(() => import('../features/ledger/Transactions.tsx'));
const Market = lazyPage(() => import('../features/market/Market.tsx'));
const Notifications = lazyPage(() => import('../features/notices/Notifications.tsx'));
const Settings = lazyPage(() => import('../features/account/Settings.tsx'));
const Password = lazyPage(() => import('../features/identity/Password.tsx'));
const Language = lazyPage(() => import('../features/account/Language.tsx'));
const Security = lazyPage(() => import('../features/identity/Security.tsx'));
const Verification = lazyPage(() => import('../features/kyc/Verification.tsx'));
const Currency = lazyPage(() => import('../features/market/Currency.tsx'));
const Orders = lazyPage(() => import('../features/trading/Orders.tsx'));
const OrderDetail = lazyPage(() => import('../features/trading/OrderDetail.tsx'));

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
  return isDesktop ? <DesktopShell>{children}</DesktopShell> : <MobileShell>{children}</MobileShell>;
}

const UPCOMING_PATHS = [
  '/trading',
  '/loan',
  '/nfts',
  '/profile/invite',
  '/help',
  '/help/faq',
  '/help/notice',
  '/swap',
];

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <NavigationEffects />
        <RefreshUser />
        <NoticeDialog />
        <Shell>
          <Boundary>
            <Suspense fallback={<Loading />}>
              <Routes>
                <Route path="/" element={<Home />} />
                {UPCOMING_PATHS.map((path) => (
                  <Route key={path} path={path} element={<Upcoming />} />
                ))}
                <Route path="/market" element={<Market />} />
                <Route path="/cruuency" element={<Currency />} />
                <Route path="/profile" element={<Profile />} />
                <Route path="/profile/notification" element={<Notifications />} />
                <Route path="/profile/settings" element={<Settings />} />
                <Route path="/profile/password" element={<Password />} />
                <Route path="/profile/language" element={<Language />} />
                <Route path="/profile/security" element={<Security />} />
                <Route path="/profile/verification" element={<Verification />} />
                <Route path="/profile/balance" element={<Balance />} />
                <Route path="/profile/transactions" element={<Transactions />} />
                <Route path="/profile/orders" element={<Orders />} />
                <Route path="/profile/orders/:id" element={<OrderDetail />} />
                <Route path="/pass/register" element={<Register />} />
                <Route path="/pass/login" element={<Login />} />
                <Route path="/api/loginCallback/:provider" element={<LoginCallback />} />
                <Route path="/pass/reset" element={<Reset />} />
                <Route path="/detail" element={<Detail />} />
                <Route path="/introduction" element={<Introduction />} />
                <Route path="/financial">
                  <Route index element={<Navigate to="/financial/cryptoInvest" replace />} />
                  <Route path="vipInvest" element={<Upcoming />} />
                  <Route path="vipInvestDetail/:info" element={<Upcoming />} />
                  <Route path="cryptoInvest" element={<Upcoming />} />
                  <Route path="cryptoInvestDetail" element={<Upcoming />} />
                  <Route path="myInvest/:type" element={<Upcoming />} />
                  <Route path="*" element={<Navigate to="/financial/cryptoInvest" replace />} />
                </Route>
                <Route path="*" element={<Navigate to="/" replace />} />
              </Routes>
            </Suspense>
          </Boundary>
        </Shell>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
