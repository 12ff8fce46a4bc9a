import { z } from 'zod/mini';
import {
  contentDetail,
  contentIdParams,
  contentItem,
  contentListParams,
  contentTypeParams,
  paramKeyParams,
  systemParam,
} from './content.ts';
import {
  availability,
  checkUserNameQuery,
  disableTotpBody,
  emptyData,
  enableTotpBody,
  loginAnswer,
  loginBody,
  loginResult,
  loginTotpBody,
  notice,
  noticeListQuery,
  readNoticeQuery,
  recoveryCodesData,
  registerBody,
  repasswordBody,
  resetPasswordBody,
  revokeSessionBody,
  sendCodeBody,
  sendSmsCodeBody,
  sentCode,
  sessionItem,
  socialCallbackBody,
  socialProvider,
  socialProviderParams,
  socialStart,
  totpSetup,
  totpStatus,
} from './identity.ts';
import { creditScore, identificationBody, identificationStatus } from './kyc.ts';
import { balancesData, transactionsPage, transactionsQuery } from './ledger.ts';
import {
  candleQuery,
  candleSeries,
  listMarketQuery,
  marketIdParams,
  marketItem,
  platformStats,
  watchBody,
} from './market.ts';
import { operatorInfo } from './operator.ts';
import {
  openBody,
  optionsOrder,
  orderIdBody,
  orderIdParams,
  orderListQuery,
  orderPage,
  ticketBody,
  ticketFigures,
  tradingTerms,
  updateOrderBody,
} from './trading.ts';
import { uploadCalls } from './uploads.ts';

/**
 * Every call of spec §7, under the customer API base `/swx/customer`. A call whose module has not
 * landed yet is declared with `status: 'planned'` and open schemas; the issue that builds it
 * completes its schemas and flips it to `live`. The server mounts only live calls, so a planned
 * call answers the catalogue's "not found" rather than pretending to work.
 */
export type CallDefinition = {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  /** Needs the `Authorization` token of a customer session. */
  auth: boolean;
  status: 'live' | 'planned';
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  data: z.ZodMiniType;
};

export const userInfo = z.object({ id: z.int(), userName: z.string() });

const planned = z.unknown();

function call<const D extends CallDefinition>(definition: D): D {
  return definition;
}

export const CUSTOMER_API_BASE = '/swx/customer';

export const calls = {
  // Login and registration
  checkUserNameOrPhone: call({
    method: 'GET',
    path: '/login/checkUserNameOrPhone',
    summary: 'Is a username, email or phone (areaCode + phone) free to register',
    auth: false,
    status: 'live',
    query: checkUserNameQuery,
    data: availability,
  }),
  register: call({
    method: 'POST',
    path: '/login/register',
    summary:
      'Register with a username or email and the mailed code, or a phone (areaCode + phone) and the SMS code, and a password twice; opens the demo and live books and logs in',
    auth: false,
    status: 'live',
    body: registerBody,
    data: loginResult,
  }),
  login: call({
    method: 'POST',
    path: '/login/login',
    summary:
      'Log in; returns the token and user info. With two-step verification on, a right password returns {twoFactor: true, challenge} instead (no token): finish with loginTotp',
    auth: false,
    status: 'live',
    body: loginBody,
    data: loginAnswer,
  }),
  loginTotp: call({
    method: 'POST',
    path: '/login/loginTotp',
    summary:
      'Second login step: the challenge and an authenticator code or a recovery code; returns the token and user info (wrong code 10091; expired, used or exhausted challenge 10028)',
    auth: false,
    status: 'live',
    body: loginTotpBody,
    data: loginResult,
  }),
  sendCode: call({
    method: 'POST',
    path: '/login/sendCode',
    summary: 'Send a verification code by mail',
    auth: false,
    status: 'live',
    body: sendCodeBody,
    data: sentCode,
  }),
  sendSmsCode: call({
    method: 'POST',
    path: '/login/sendSmsCode',
    summary:
      'Send a verification code by SMS to areaCode + phone (purpose register or reset); same rules and limits as sendCode',
    auth: false,
    status: 'live',
    body: sendSmsCodeBody,
    data: sentCode,
  }),
  listSocialProviders: call({
    method: 'GET',
    path: '/login/socialProviders',
    summary:
      'The social sign-in providers this server offers (only configured ones), with their button labels',
    auth: false,
    status: 'live',
    data: z.array(socialProvider),
  }),
  loginByProvider: call({
    method: 'POST',
    path: '/login/loginBy:provider',
    summary:
      'Social sign-in (OpenID Connect), e.g. loginByGoogle: starts a sign-in and returns the provider’s authorization URL; sets an HttpOnly cookie that ties it to this browser for 10 minutes (unknown provider 10028)',
    auth: false,
    status: 'live',
    params: socialProviderParams,
    data: socialStart,
  }),
  loginByProviderCallback: call({
    method: 'POST',
    path: '/login/loginBy:provider/callback',
    summary:
      'Finishes a social sign-in with what the provider sent to /api/loginCallback/{provider}: returns the token and user info, or {twoFactor: true, challenge} with 2FA on. Unknown, used, expired or other-browser state 10028; refused by the provider or an invalid ID token 10029; the email belongs to an account and the provider did not verify it 10007; provider unreachable 10031',
    auth: false,
    status: 'live',
    params: socialProviderParams,
    body: socialCallbackBody,
    data: loginAnswer,
  }),

  // Index and content
  listMarketByType: call({
    method: 'GET',
    path: '/index/listMarketByType',
    summary:
      'Market items of one type (1 forex, 2 crypto, 3 stocks, 5 ETF, 6 metals, 7 futures) with price, 24 h change and mini chart',
    auth: false,
    status: 'live',
    query: listMarketQuery,
    data: z.array(marketItem),
  }),
  getKValueByCodeAndDate: call({
    method: 'GET',
    path: '/index/getKValueByCodeAndDate',
    summary: 'Candles (1m 5m 15m 1h 4h 1d 1w) ending on a date of the past year (default now)',
    auth: false,
    status: 'live',
    query: candleQuery,
    data: candleSeries,
  }),
  getMarketInfo: call({
    method: 'GET',
    path: '/index/getMarketInfo/:id',
    summary: 'One market item',
    auth: false,
    status: 'live',
    params: marketIdParams,
    data: marketItem,
  }),
  listContents: call({
    method: 'GET',
    path: '/index/listContents/:type',
    summary: 'Content items of type 1 company, 2 policy or 3 other, in the request language',
    auth: false,
    status: 'live',
    params: contentTypeParams,
    data: z.array(contentItem),
  }),
  listContentsByList: call({
    method: 'GET',
    path: '/index/listContents/:type/:x',
    summary:
      'Type 4: every footer item (x = list id, 1 Chinese, 2 other); 5: FAQ of category x; 6: announcements of category x',
    auth: false,
    status: 'live',
    params: contentListParams,
    data: z.array(contentItem),
  }),
  getContentsById: call({
    method: 'GET',
    path: '/index/getContentsById/:id',
    summary: 'One content item with its body',
    auth: false,
    status: 'live',
    params: contentIdParams,
    data: contentDetail,
  }),
  getParamByKey: call({
    method: 'GET',
    path: '/index/getParamByKey/:key',
    summary: 'A public system parameter',
    auth: false,
    status: 'live',
    params: paramKeyParams,
    data: systemParam,
  }),
  getOperator: call({
    method: 'GET',
    path: '/index/getOperator',
    summary:
      'Who operates the platform: company, registration, regulator, contacts, risk figure, leaders, partners and links as staff set them; sandbox when no company is named',
    auth: false,
    status: 'live',
    data: operatorInfo,
  }),
  getPlatformStats: call({
    method: 'GET',
    path: '/index/getPlatformStats',
    summary: 'Home-page figures counted from the platform’s own data: registered users, listed instruments',
    auth: false,
    status: 'live',
    data: platformStats,
  }),
  listNftMarket: call({
    method: 'GET',
    path: '/index/listNft',
    summary: 'NFTs on sale',
    auth: false,
    status: 'planned',
    data: planned,
  }),

  // Orders
  buySmart: call({
    method: 'POST',
    path: '/order/buySmart',
    summary: 'Join a smart trading plan',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listSmartOrder: call({
    method: 'GET',
    path: '/order/listSmartOrder',
    summary: 'My smart trading plans',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  getTradingTerms: call({
    method: 'GET',
    path: '/order/getTradingTerms/:id',
    summary: 'Lot size, leverage choices, fee and spread of an instrument, stated before trading',
    auth: false,
    status: 'live',
    params: marketIdParams,
    data: tradingTerms,
  }),
  previewOptions: call({
    method: 'POST',
    path: '/order/previewOptions',
    summary: 'Every figure of a position as it would open at the current tick (nothing is opened)',
    auth: false,
    status: 'live',
    body: ticketBody,
    data: ticketFigures,
  }),
  buyOptions: call({
    method: 'POST',
    path: '/order/buyOptions',
    summary:
      'Open a leveraged position at the figures of a recent quote; the margin and fee leave the available balance',
    auth: true,
    status: 'live',
    body: openBody,
    data: optionsOrder,
  }),
  closeOptions: call({
    method: 'POST',
    path: '/order/closeOptions',
    summary: 'Close one of my open positions at the market',
    auth: true,
    status: 'live',
    body: orderIdBody,
    data: optionsOrder,
  }),
  updateOptions: call({
    method: 'POST',
    path: '/order/updateOptions',
    summary: 'Change the stop loss and take profit of one of my open positions',
    auth: true,
    status: 'live',
    body: updateOrderBody,
    data: optionsOrder,
  }),
  getOptionsOrderById: call({
    method: 'GET',
    path: '/order/getOptionsOrderById/:id',
    summary: 'One of my positions',
    auth: true,
    status: 'live',
    params: orderIdParams,
    data: optionsOrder,
  }),
  listOptionsOrder: call({
    method: 'GET',
    path: '/order/listOptionsOrder',
    summary: 'My positions, open or closed, newest first, a page at a time',
    auth: true,
    status: 'live',
    query: orderListQuery,
    data: orderPage,
  }),

  // User
  identification: call({
    method: 'POST',
    path: '/user/identification',
    summary:
      'Submit identity verification (KYC): the fields and the upload ids of three photos (uploaded first with purposes kyc_front, kyc_back, kyc_in_hand); answers 20001 and the new state',
    auth: true,
    status: 'live',
    body: identificationBody,
    data: identificationStatus,
  }),
  getIdentification: call({
    method: 'GET',
    path: '/user/getIdentification',
    summary: 'My verification state (none, pending, verified, failed), its times, the reason of a failure',
    auth: true,
    status: 'live',
    data: identificationStatus,
  }),
  getCreditScore: call({
    method: 'GET',
    path: '/user/getCreditScore',
    summary: 'My credit score, computed from listed rules (base 60; +20 with verified identity)',
    auth: true,
    status: 'live',
    data: creditScore,
  }),
  getUserInfo: call({
    method: 'POST',
    path: '/user/getUserInfo',
    summary: 'The logged-in user',
    auth: true,
    status: 'live',
    data: userInfo,
  }),
  recharge: call({
    method: 'POST',
    path: '/user/recharge',
    summary: 'Declare a crypto deposit',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  withdrawal: call({
    method: 'POST',
    path: '/user/withdrawal',
    summary: 'Request a withdrawal',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  buyNft: call({
    method: 'POST',
    path: '/user/buyNft',
    summary: 'Buy or bid on an NFT',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listMyNft: call({
    method: 'GET',
    path: '/user/listNft',
    summary: 'My NFTs',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  loan: call({
    method: 'POST',
    path: '/user/loan',
    summary: 'Apply for a loan',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listRecharge: call({
    method: 'GET',
    path: '/user/listRecharge',
    summary: 'My deposits',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listWithdrwal: call({
    method: 'GET',
    path: '/user/listWithdrwal',
    summary: 'My withdrawals',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listLoanRecord: call({
    method: 'GET',
    path: '/user/listLoanRecord',
    summary: 'My loans',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  repassword: call({
    method: 'POST',
    path: '/user/repassword',
    summary:
      'Change password: the current one and the new one twice; every other session ends, this one stays (wrong current password 10004)',
    auth: true,
    status: 'live',
    body: repasswordBody,
    data: z.null(),
  }),
  completeLoan: call({
    method: 'POST',
    path: '/user/completeLoan',
    summary: 'Repay a loan',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  getNoticeList: call({
    method: 'GET',
    path: '/user/getNoticeList',
    summary: 'My notices, newest first (readState 0 = unread; filter with ?readState=0)',
    auth: true,
    status: 'live',
    query: noticeListQuery,
    data: z.array(notice),
  }),
  readNotice: call({
    method: 'GET',
    path: '/user/readNotice',
    summary: 'Mark one of my notices read',
    auth: true,
    status: 'live',
    query: readNoticeQuery,
    data: z.null(),
  }),

  resetPassword: call({
    method: 'POST',
    path: '/login/resetPassword',
    summary:
      'Set a new password with a code for purpose "reset": mailed to the email, or sent by SMS to areaCode + phone; every session of the account ends',
    auth: false,
    status: 'live',
    body: resetPasswordBody,
    data: z.null(),
  }),
  logout: call({
    method: 'POST',
    path: '/user/logout',
    summary: 'End this session (its token stops working at once)',
    auth: true,
    status: 'live',
    data: emptyData,
  }),
  listSessions: call({
    method: 'GET',
    path: '/user/listSessions',
    summary: 'My live sessions, most recently used first: id, times, browser and OS, masked address, current',
    auth: true,
    status: 'live',
    data: z.array(sessionItem),
  }),
  revokeSession: call({
    method: 'POST',
    path: '/user/revokeSession',
    summary: 'End one of my sessions by its id (an id that is not mine answers 10028)',
    auth: true,
    status: 'live',
    body: revokeSessionBody,
    data: z.null(),
  }),
  getTotpStatus: call({
    method: 'GET',
    path: '/user/getTotpStatus',
    summary: 'Whether two-step verification is on, and how many recovery codes are left',
    auth: true,
    status: 'live',
    data: totpStatus,
  }),
  setupTotp: call({
    method: 'POST',
    path: '/user/setupTotp',
    summary:
      'Start two-step verification: a new authenticator secret (base32) and its otpauth URI, inactive until enableTotp',
    auth: true,
    status: 'live',
    data: totpSetup,
  }),
  enableTotp: call({
    method: 'POST',
    path: '/user/enableTotp',
    summary: 'Confirm the new secret with a code; returns 10 single-use recovery codes, shown this once',
    auth: true,
    status: 'live',
    body: enableTotpBody,
    data: recoveryCodesData,
  }),
  disableTotp: call({
    method: 'POST',
    path: '/user/disableTotp',
    summary: 'Turn two-step verification off with the password and a code (or a recovery code)',
    auth: true,
    status: 'live',
    body: disableTotpBody,
    data: z.null(),
  }),
  getBalances: call({
    method: 'GET',
    path: '/user/getBalances',
    summary: 'Balances per asset (available, held, total) in the book the virtually header names',
    auth: true,
    status: 'live',
    data: balancesData,
  }),
  listTransactions: call({
    method: 'GET',
    path: '/user/listTransactions',
    summary:
      'Ledger entries that touched my accounts in this book, newest first; keyset pages (before = last entryId)',
    auth: true,
    status: 'live',
    query: transactionsQuery,
    data: transactionsPage,
  }),
  resetDemo: call({
    method: 'POST',
    path: '/user/resetDemo',
    summary: 'Reset the demo book to 100,000 virtual USDT (demo book only)',
    auth: true,
    status: 'live',
    data: balancesData,
  }),

  listWatchlist: call({
    method: 'GET',
    path: '/user/listWatchlist',
    summary: 'My watchlist, as market items',
    auth: true,
    status: 'live',
    data: z.array(marketItem),
  }),
  addWatchlist: call({
    method: 'POST',
    path: '/user/addWatchlist',
    summary: 'Add an instrument to my watchlist',
    auth: true,
    status: 'live',
    body: watchBody,
    data: z.null(),
  }),
  removeWatchlist: call({
    method: 'POST',
    path: '/user/removeWatchlist',
    summary: 'Remove an instrument from my watchlist',
    auth: true,
    status: 'live',
    body: watchBody,
    data: z.null(),
  }),

  // Finance
  vipProjects: call({
    method: 'GET',
    path: '/finance/vipProject',
    summary: 'VIP finance products',
    auth: false,
    status: 'planned',
    data: planned,
  }),
  vipInvest: call({
    method: 'POST',
    path: '/finance/vipProject/invest',
    summary: 'Invest in a VIP product',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  vipUserProjects: call({
    method: 'GET',
    path: '/finance/vipProject/userProject',
    summary: 'My VIP investments',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  vipRedeem: call({
    method: 'POST',
    path: '/finance/vipProject/redeem',
    summary: 'Redeem a VIP investment',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  fundItems: call({
    method: 'GET',
    path: '/finance/item',
    summary: 'Crypto funds',
    auth: false,
    status: 'planned',
    data: planned,
  }),
  fundUserProjects: call({
    method: 'GET',
    path: '/finance/item/userProject',
    summary: 'My fund investments of one type',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  fundApply: call({
    method: 'POST',
    path: '/finance/item/apply',
    summary: 'Invest in a fund',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  fundWallet: call({
    method: 'GET',
    path: '/finance/item/wallet',
    summary: 'Fund wallet',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  fundPrice: call({
    method: 'GET',
    path: '/finance/item/price',
    summary: 'Swap prices',
    auth: false,
    status: 'planned',
    data: planned,
  }),
  myInvestment: call({
    method: 'GET',
    path: '/finance/item/myInvestment',
    summary: 'My investment summary',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  instantExchangeItem: call({
    method: 'POST',
    path: '/finance/item/instantExchangeItem',
    summary: 'Quote a swap',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  instantExchange: call({
    method: 'POST',
    path: '/finance/item/instantExchange',
    summary: 'Swap currencies',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  fundRedeem: call({
    method: 'POST',
    path: '/finance/item/redeem',
    summary: 'Redeem a fund investment',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  ...uploadCalls,
} as const satisfies Record<string, CallDefinition>;

export type CallName = keyof typeof calls;
export type CallData<N extends CallName> = z.infer<(typeof calls)[N]['data']>;
