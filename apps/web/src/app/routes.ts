import type { CallName } from '@swx/contract';
import type { ComponentType } from 'react';
import { matchRoutes } from 'react-router';

/**
 * The one route list (spec §2). The router is built from it (App.tsx), and so is everything the
 * shells know of a route: its title, the tab it belongs to, whether it is a tab root (no back
 * button; in the top nav and the tab bar), which chrome it hides, and which routes are pages
 * "opening soon". A new screen is one entry here.
 */
export type TabKey = 'home' | 'market' | 'trading' | 'loan' | 'nfts' | 'profile';

type Loader = () => Promise<{ default: ComponentType }>;

/**
 * What a route shows: a screen loaded on first visit (its own chunk), the home page (in the
 * entry chunk), the "opening soon" page of a feature a later issue builds, or a redirect.
 */
export type RouteView = { load: Loader } | 'home' | 'upcoming' | { redirect: string };

export type RouteEntry = {
  /** A react-router path: `:name` parameters, `*` for the rest. */
  path: string;
  /** Its title, a key under `title.` in the locale files (document title, mobile bar, page heading). */
  title: string;
  tab?: TabKey;
  /** One of the six tabs, in this order. */
  tabRoot?: true;
  /**
   * `pass`: login, register and reset show neither nav nor footer nor tab bar (spec §2), and no
   * one returns to them after a login; `bare`: the social sign-in return page hides the desktop
   * nav and footer and the mobile tab bar.
   */
  chrome?: 'pass' | 'bare';
  view: RouteView;
  /**
   * The GET whose answer the screen draws first, when the page opens on this route: boot.js sends
   * it with the app's first requests instead of once the app has run up to the screen, and the
   * screen's own call takes its answer (app/firstCall.ts; the same URL and headers, or it is sent
   * again). Each path parameter of the call by where it comes from: `?name`, the page's query;
   * `:name`, a parameter of this route's path.
   */
  firstCall?: { name: CallName; params: Record<string, `?${string}` | `:${string}`> };
};

const upcoming = 'upcoming';

/** The shell of the `pass` pages (login, register, reset): a chunk of its own, loaded with them. */
export const loadPassShell = () => import('../shell/PassShell.tsx');

/** A self-custody wallet screen: the six share one chunk, with the key libraries (never in the entry chunk). */
const custody =
  (screen: keyof typeof import('../features/custody/screens.ts')): Loader =>
  () =>
    import('../features/custody/screens.ts').then((m) => ({ default: m[screen] }));

/** An earn screen: the five share one chunk (one preload list in the entry chunk for their routes). */
const earn =
  (screen: keyof typeof import('../features/earn/screens.ts')): Loader =>
  () =>
    import('../features/earn/screens.ts').then((m) => ({ default: m[screen] }));

/** A smart trading screen: the four share one chunk. */
const smart =
  (screen: keyof typeof import('../features/smart/screens.ts')): Loader =>
  () =>
    import('../features/smart/screens.ts').then((m) => ({ default: m[screen] }));

/** A loan screen: they share one chunk, like the earn screens. */
const loans =
  (screen: keyof typeof import('../features/loans/screens.ts')): Loader =>
  () =>
    import('../features/loans/screens.ts').then((m) => ({ default: m[screen] }));

export const ROUTES: readonly RouteEntry[] = [
  { path: '/', title: 'home', tab: 'home', tabRoot: true, view: 'home' },
  {
    path: '/market',
    title: 'market',
    tab: 'market',
    tabRoot: true,
    view: { load: () => import('../features/market/Market.tsx') },
  },
  { path: '/trading', title: 'trading', tab: 'trading', tabRoot: true, view: { load: smart('Products') } },
  { path: '/trading/plans', title: 'smartPlans', tab: 'trading', view: { load: smart('Plans') } },
  { path: '/trading/plans/:id', title: 'smartPlan', tab: 'trading', view: { load: smart('Plan') } },
  {
    path: '/trading/:productId',
    title: 'smartProduct',
    tab: 'trading',
    view: { load: smart('Product') },
    firstCall: { name: 'smartProduct', params: { id: ':productId' } },
  },
  { path: '/loan', title: 'loan', tab: 'loan', tabRoot: true, view: { load: loans('Browse') } },
  { path: '/loan/borrow/:productId', title: 'loanBorrow', tab: 'loan', view: { load: loans('Borrow') } },
  { path: '/loan/records', title: 'loanRecords', tab: 'loan', view: { load: loans('MyLoans') } },
  { path: '/loan/:id', title: 'loanDetail', tab: 'loan', view: { load: loans('LoanDetail') } },
  { path: '/nfts', title: 'nfts', tab: 'nfts', tabRoot: true, view: upcoming },
  {
    path: '/profile',
    title: 'profile',
    tab: 'profile',
    tabRoot: true,
    view: { load: () => import('../features/account/Profile.tsx') },
  },
  {
    path: '/cruuency',
    title: 'currency',
    tab: 'market',
    view: { load: () => import('../features/trading/Currency.tsx') },
    firstCall: { name: 'getMarketInfo', params: { id: '?id' } },
  },
  {
    path: '/profile/balance',
    title: 'balance',
    tab: 'profile',
    view: { load: () => import('../features/ledger/Balance.tsx') },
  },
  {
    path: '/profile/transactions',
    title: 'transactions',
    tab: 'profile',
    view: { load: () => import('../features/ledger/Transactions.tsx') },
  },
  {
    path: '/profile/orders',
    title: 'orders',
    tab: 'profile',
    view: { load: () => import('../features/trading/Orders.tsx') },
  },
  {
    path: '/profile/orders/:id',
    title: 'orderDetail',
    tab: 'profile',
    view: { load: () => import('../features/trading/OrderDetail.tsx') },
  },
  {
    path: '/profile/notification',
    title: 'notification',
    tab: 'profile',
    view: { load: () => import('../features/notices/Notifications.tsx') },
  },
  {
    path: '/profile/settings',
    title: 'settings',
    tab: 'profile',
    view: { load: () => import('../features/account/Settings.tsx') },
  },
  {
    path: '/profile/language',
    title: 'changeLanguage',
    tab: 'profile',
    view: { load: () => import('../features/account/Language.tsx') },
  },
  {
    path: '/profile/password',
    title: 'changePassword',
    tab: 'profile',
    view: { load: () => import('../features/identity/Password.tsx') },
  },
  {
    path: '/profile/security',
    title: 'security',
    tab: 'profile',
    view: { load: () => import('../features/identity/Security.tsx') },
  },
  {
    path: '/profile/verification',
    title: 'verification',
    tab: 'profile',
    view: { load: () => import('../features/kyc/Verification.tsx') },
  },
  {
    path: '/profile/deposit',
    title: 'deposit',
    tab: 'profile',
    view: { load: () => import('../features/wallet/Deposit.tsx') },
  },
  {
    path: '/profile/withdraw',
    title: 'withdraw',
    tab: 'profile',
    view: { load: () => import('../features/wallet/Withdraw.tsx') },
  },
  {
    path: '/profile/addresses',
    title: 'addresses',
    tab: 'profile',
    view: { load: () => import('../features/wallet/Addresses.tsx') },
  },
  {
    path: '/profile/deposits',
    title: 'deposits',
    tab: 'profile',
    view: { load: () => import('../features/wallet/Records.tsx').then((m) => ({ default: m.Deposits })) },
  },
  {
    path: '/profile/withdrawals',
    title: 'withdrawals',
    tab: 'profile',
    view: { load: () => import('../features/wallet/Records.tsx').then((m) => ({ default: m.Withdrawals })) },
  },
  { path: '/profile/wallet', title: 'custody', tab: 'profile', view: { load: custody('Overview') } },
  {
    path: '/profile/wallet/create',
    title: 'custodyCreate',
    tab: 'profile',
    view: { load: custody('Create') },
  },
  {
    path: '/profile/wallet/restore',
    title: 'custodyRestore',
    tab: 'profile',
    view: { load: custody('Restore') },
  },
  {
    path: '/profile/wallet/verify',
    title: 'custodyVerify',
    tab: 'profile',
    view: { load: custody('Verify') },
  },
  {
    path: '/profile/wallet/reveal',
    title: 'custodyReveal',
    tab: 'profile',
    view: { load: custody('Reveal') },
  },
  {
    path: '/profile/wallet/withdrawal',
    title: 'custodyAdd',
    tab: 'profile',
    view: { load: custody('AddAddress') },
  },
  { path: '/profile/contract', title: 'loanContract', tab: 'profile', view: { load: loans('Contracts') } },
  { path: '/profile/repayment', title: 'loanRepayment', tab: 'profile', view: { load: loans('Repayments') } },
  { path: '/profile/credit', title: 'creditScore', tab: 'profile', view: { load: loans('Credit') } },
  { path: '/profile/invite', title: 'invite', tab: 'profile', view: upcoming },
  {
    path: '/pass/login',
    title: 'login',
    chrome: 'pass',
    view: { load: () => import('../features/identity/Login.tsx') },
  },
  {
    path: '/pass/register',
    title: 'register',
    chrome: 'pass',
    view: { load: () => import('../features/identity/Register.tsx') },
  },
  {
    path: '/pass/reset',
    title: 'reset',
    chrome: 'pass',
    view: { load: () => import('../features/identity/Reset.tsx') },
  },
  {
    path: '/pass/lock',
    title: 'lockAccount',
    chrome: 'pass',
    view: { load: () => import('../features/identity/LockAccount.tsx') },
  },
  {
    path: '/api/loginCallback/:provider',
    title: 'loginCallback',
    chrome: 'bare',
    view: { load: () => import('../features/identity/LoginCallback.tsx') },
  },
  {
    path: '/detail',
    title: 'detail',
    view: { load: () => import('../features/content/Detail.tsx') },
    firstCall: { name: 'getContentsById', params: { id: '?id' } },
  },
  {
    path: '/introduction',
    title: 'introduction',
    view: { load: () => import('../features/content/Introduction.tsx') },
  },
  { path: '/help', title: 'help', view: upcoming },
  { path: '/help/faq', title: 'faq', view: upcoming },
  { path: '/help/notice', title: 'helpNotice', view: upcoming },
  { path: '/swap', title: 'swap', view: { load: () => import('../features/swap/Swap.tsx') } },
  { path: '/financial', title: 'financial', tab: 'profile', view: { redirect: '/financial/cryptoInvest' } },
  {
    path: '/financial/vipInvest',
    title: 'vipInvest',
    tab: 'profile',
    view: { load: earn('VipList') },
  },
  {
    path: '/financial/vipInvestDetail/:info',
    title: 'vipInvestDetail',
    tab: 'profile',
    view: { load: earn('VipDetail') },
  },
  {
    path: '/financial/cryptoInvest',
    title: 'cryptoInvest',
    tab: 'profile',
    view: { load: earn('FundList') },
  },
  {
    path: '/financial/cryptoInvestDetail',
    title: 'cryptoInvestDetail',
    tab: 'profile',
    view: { load: earn('FundDetail') },
  },
  {
    path: '/financial/myInvest/:type',
    title: 'myInvest',
    tab: 'profile',
    view: { load: earn('MyInvest') },
  },
  { path: '/financial/*', title: 'financial', tab: 'profile', view: { redirect: '/financial/cryptoInvest' } },
  { path: '*', title: 'home', tab: 'home', view: { redirect: '/' } },
];

/** The six tabs of the top nav and the tab bar. */
export const TABS: readonly { key: TabKey; path: string }[] = ROUTES.flatMap((route) =>
  route.tabRoot && route.tab ? [{ key: route.tab, path: route.path }] : [],
);

const HOME = ROUTES[0] as RouteEntry;

/** The entry the router shows for a path (the same ranking as the router's). */
export function routeMeta(pathname: string): RouteEntry {
  return matchRoutes(ROUTES as RouteEntry[], pathname)?.[0]?.route ?? HOME;
}

/** The login, register and reset pages show neither nav nor footer (spec §2). */
export function isPassPage(pathname: string): boolean {
  return routeMeta(pathname).chrome === 'pass';
}

/** The social sign-in return page hides the desktop nav and footer and the mobile tab bar. */
export function isLoginCallback(pathname: string): boolean {
  return routeMeta(pathname).chrome === 'bare';
}

export function isTabRoot(pathname: string): boolean {
  return routeMeta(pathname).tabRoot === true;
}
