/**
 * The route table of spec §2, with what the shells need to know of each route: its title key,
 * the tab it belongs to, and which chrome it hides.
 */
export type TabKey = 'home' | 'market' | 'trading' | 'loan' | 'nfts' | 'profile';

export const TABS: readonly { key: TabKey; path: string }[] = [
  { key: 'home', path: '/' },
  { key: 'market', path: '/market' },
  { key: 'trading', path: '/trading' },
  { key: 'loan', path: '/loan' },
  { key: 'nfts', path: '/nfts' },
  { key: 'profile', path: '/profile' },
];

export type RouteMeta = { pattern: RegExp; title: string; tab?: TabKey };

const META: readonly RouteMeta[] = [
  { pattern: /^\/$/, title: 'home', tab: 'home' },
  { pattern: /^\/market$/, title: 'market', tab: 'market' },
  { pattern: /^\/trading$/, title: 'trading', tab: 'trading' },
  { pattern: /^\/loan$/, title: 'loan', tab: 'loan' },
  { pattern: /^\/nfts$/, title: 'nfts', tab: 'nfts' },
  { pattern: /^\/profile$/, title: 'profile', tab: 'profile' },
  { pattern: /^\/profile\/balance$/, title: 'balance', tab: 'profile' },
  { pattern: /^\/profile\/invite$/, title: 'invite', tab: 'profile' },
  { pattern: /^\/profile\/transactions$/, title: 'transactions', tab: 'profile' },
  { pattern: /^\/profile\/notification$/, title: 'notification', tab: 'profile' },
  { pattern: /^\/profile\/settings$/, title: 'settings', tab: 'profile' },
  { pattern: /^\/profile\/password$/, title: 'changePassword', tab: 'profile' },
  { pattern: /^\/profile\/language$/, title: 'changeLanguage', tab: 'profile' },
  { pattern: /^\/profile\/security$/, title: 'security', tab: 'profile' },
  { pattern: /^\/profile\/verification$/, title: 'verification', tab: 'profile' },
  { pattern: /^\/profile\/orders$/, title: 'orders', tab: 'profile' },
  { pattern: /^\/profile\/orders\/[^/]+$/, title: 'orderDetail', tab: 'profile' },
  { pattern: /^\/cruuency$/, title: 'currency', tab: 'market' },
  { pattern: /^\/help$/, title: 'help' },
  { pattern: /^\/help\/faq$/, title: 'faq' },
  { pattern: /^\/help\/notice$/, title: 'helpNotice' },
  { pattern: /^\/pass\/register$/, title: 'register' },
  { pattern: /^\/pass\/login$/, title: 'login' },
  { pattern: /^\/pass\/reset$/, title: 'reset' },
  { pattern: /^\/detail$/, title: 'detail' },
  { pattern: /^\/introduction$/, title: 'introduction' },
  { pattern: /^\/financial\/vipInvest$/, title: 'vipInvest', tab: 'profile' },
  { pattern: /^\/financial\/vipInvestDetail\/[^/]+$/, title: 'vipInvestDetail', tab: 'profile' },
  { pattern: /^\/financial\/cryptoInvest$/, title: 'cryptoInvest', tab: 'profile' },
  { pattern: /^\/financial\/cryptoInvestDetail$/, title: 'cryptoInvestDetail', tab: 'profile' },
  { pattern: /^\/financial\/myInvest\/[^/]+$/, title: 'myInvest', tab: 'profile' },
  { pattern: /^\/financial/, title: 'financial', tab: 'profile' },
  { pattern: /^\/swap$/, title: 'swap' },
  { pattern: /^\/api\/loginCallback\/[^/]+$/, title: 'loginCallback' },
];

export function routeMeta(pathname: string): RouteMeta {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return META.find((meta) => meta.pattern.test(path)) ?? { pattern: /^\/$/, title: 'home', tab: 'home' };
}

/** The login, register and reset pages show neither nav nor footer (spec §2). */
export function isPassPage(pathname: string): boolean {
  return /^\/pass\/(login|register|reset)\/?$/.test(pathname);
}

/** The social sign-in return page hides the desktop nav and footer and the mobile tab bar. */
export function isLoginCallback(pathname: string): boolean {
  return pathname.startsWith('/api/loginCallback/');
}

export function isTabRoot(pathname: string): boolean {
  return TABS.some((tab) => tab.path === pathname);
}
