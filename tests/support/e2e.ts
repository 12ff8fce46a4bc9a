import type { StaffInfo } from '@swx/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { readAllNotices, registerByApi, type Session } from './accounts.ts';
import { staffApi } from './api.ts';
import { btcPagePath, type Layout, watchErrors, workerBrowser } from './browser.ts';
import { ContextPool } from './context-pool.ts';
import { type ServerDatabase, type StartedServer, useServer } from './integration.ts';
import { profileTheFile } from './profile.ts';
import type { RunningServer } from './server.ts';
import type { Inbox } from './smtp.ts';
import { enrolStaffByApi, STAFF_PASSWORD, type StaffRoleName } from './staff.ts';
import { authenticatorCode } from './totp.ts';

/**
 * The shared fixtures of the browser tests. `useApp()` at the top of a file starts, for the whole
 * file, a real server (its mail going to an SMTP receiver in the test, and with `staff`, a staff
 * account the operator created by the CLI once it started) and Chromium, and stops them after.
 * What a test then asks of it:
 *
 *   const app = useApp();
 *   const { page } = await app.signedIn('desktop', 'lena@example.com'); // a logged-in customer
 *   const { page } = await app.open('mobile', { language: 'ar' });    // a visitor
 *   const admin = await app.staffPage('desktop');                      // a staff session
 *
 * Pages are driven through the page models of tests/support/pages.
 */

export type StaffSessionData = { token: string; staff: StaffInfo };

/** The file's staff account: its password of the moment and its authenticator codes. */
export class StaffAccount {
  /** The authenticator secret, once enrolled (by the API here, or read off the enrolment screen). */
  secret = '';
  /** Authenticator steps used so far: a step's code is accepted once. */
  private steps = 0;

  readonly email: string;
  readonly role: StaffRoleName;
  readonly oneTimePassword: string;
  private readonly baseUrl: string;

  constructor(email: string, role: StaffRoleName, oneTimePassword: string, baseUrl: string) {
    this.email = email;
    this.role = role;
    this.oneTimePassword = oneTimePassword;
    this.baseUrl = baseUrl;
  }

  get enrolled(): boolean {
    return this.secret !== '';
  }

  /** The password to type: the one-time password until enrolment, the chosen one after. */
  get password(): string {
    return this.enrolled ? STAFF_PASSWORD : this.oneTimePassword;
  }

  /** The next unused authenticator code. */
  code(): string {
    return authenticatorCode(this.secret, this.steps++);
  }

  /** Records an enrolment done in the browser (its code was taken with `code()`). */
  enrolledWith(secret: string): void {
    this.secret = secret;
  }

  /** A staff session over the API: the enrolment the first time, password and code after. */
  async session(): Promise<StaffSessionData> {
    if (!this.enrolled) {
      const enrolled = await enrolStaffByApi(this.baseUrl, this.email, this.oneTimePassword);
      this.secret = enrolled.secret;
      this.steps = 1;
      return { token: enrolled.token, staff: enrolled.staff };
    }
    const anonymous = staffApi(this.baseUrl);
    const step = await anonymous.ok('signIn', { email: this.email, password: STAFF_PASSWORD });
    if (step.step !== 'totp') throw new Error(`staff sign-in answered ${step.step}`);
    return anonymous.ok('verifyCode', { challenge: step.challenge, code: this.code() });
  }
}

export type OpenOptions = {
  /** Hold this customer's session (seeded once: a logout or a 401 in the test sticks). */
  as?: Session;
  /** Hold this staff session in the back office's tab. */
  staff?: StaffSessionData;
  /** The language the app starts in (seeded once: a change in the app sticks). */
  language?: string;
  /** Show the mobile welcome board (by default it counts as seen). */
  welcome?: boolean;
  /** Keep the live-quote socket silent, for checks of layout and counts that need no prices. */
  quiet?: boolean;
  /** The browser's locale (en-US by default), for pages read as a reader of that language sees them. */
  locale?: string;
  /** Another desktop width than 1366 (e.g. 1280). */
  width?: number;
  /** The address of another server than the file's (one a test started for itself). */
  baseUrl?: string;
  /**
   * Let the app register its service worker (public/sw.js): only the tests of the worker itself
   * need it. Every fresh context would install it anew, a quarter of a page load's work in Chromium.
   */
  serviceWorker?: boolean;
};

export type Opened = { page: Page; errors: string[]; context: BrowserContext };

export type App = {
  readonly server: RunningServer;
  readonly inbox: Inbox;
  readonly browser: Browser;
  /** The staff account the operator created (with `useApp({ staff })`). */
  readonly staff: StaffAccount;
  /** Another staff account the operator created (with `useApp({ moreStaff })`), by email. */
  staffAccount(email: string): StaffAccount;
  /** A page in a fresh browser context, at the desktop (1366×900) or an iPhone's 390×844 viewport. */
  open(layout: Layout, options?: OpenOptions): Promise<Opened>;
  /** A customer registered through the API (a mailed code, then the registration). */
  customer(email: string, password?: string): Promise<Session>;
  /** A logged-in customer: registered through the API, every notice read, the session in the page. */
  signedIn(
    layout: Layout,
    email: string,
    options?: Omit<OpenOptions, 'as'> & { password?: string },
  ): Promise<Opened & { session: Session }>;
  /** A back-office page holding a staff session of the file's staff account (signed in over the API). */
  staffPage(layout: Layout, options?: Omit<OpenOptions, 'staff'>): Promise<Opened>;
  /** The instrument page of BTCUSDT: crypto trades around the clock, so it is open whatever day a test runs. */
  btcPage(): Promise<string>;
};

export type AppOptions = {
  /** Server settings, or a function that prepares what the server needs first and answers them. */
  env?: Record<string, string> | (() => Promise<Record<string, string>>);
  /** A staff account created by the CLI on the started server. */
  staff?: { email: string; role: StaffRoleName };
  /** More staff accounts created by the CLI (e.g. an admin beside finance). */
  moreStaff?: { email: string; role: StaffRoleName }[];
  /** Runs after the server and Chromium stopped (e.g. to stop what `env` started). */
  after?: () => Promise<void>;
  /** The limit of the start (a server start is slow on a busy machine). */
  timeout?: number;
  /** The server's database when `env` names none (support/integration.ts ServerDatabase). */
  database?: ServerDatabase;
};

/**
 * A page whose first screen the build drew (scripts/prerender.mjs) shows it inert until the app
 * has drawn it again: `goto` and `reload` return once the app has (what a person waits for before
 * they type or tab), unless they name what to wait for (`waitUntil`), as a test of the first
 * screen itself does.
 */
function awaitTheApp(page: Page): void {
  const drawn = () => page.waitForFunction(() => !document.documentElement.hasAttribute('data-first-screen'));
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (!options?.waitUntil) await drawn();
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    if (!options?.waitUntil) await drawn();
    return response;
  };
}

/** One server and Chromium for a test file, started before its tests and stopped after them. */
export function useApp(options: AppOptions = {}): App {
  profileTheFile();
  const running = startedForTheFile(options);
  const pool = new ContextPool(() => running().browser);
  // After the file's contexts went back (hooks after run last-registered first), before the server stops.
  afterAll(() => pool.closeAll());
  const track = closedWithTheirTest();
  let btcPage: string | undefined;

  const app: App = {
    get server() {
      return running().server;
    },
    get inbox() {
      return running().inbox;
    },
    get browser() {
      return running().browser;
    },
    get staff() {
      const staff = running().staff;
      if (!staff) throw new Error('no staff account: useApp({ staff: { email, role } })');
      return staff;
    },
    staffAccount(email) {
      const account = running().accounts.get(email);
      if (!account) throw new Error(`no staff account ${email}: useApp({ moreStaff: [{ email, role }] })`);
      return account;
    },
    async open(layout, given = {}) {
      const { server: s } = running();
      const context = await seededContext(pool, layout, given.baseUrl ?? s.baseUrl, given);
      track(context);
      const page = await context.newPage();
      awaitTheApp(page);
      return { page, errors: watchErrors(page), context };
    },
    customer(email, password) {
      const { server: s, inbox: i } = running();
      return registerByApi(s, i, email, password);
    },
    async signedIn(layout, email, given = {}) {
      const { password, ...rest } = given;
      const session = await app.customer(email, password);
      await readAllNotices(running().server, session.token);
      return { ...(await app.open(layout, { ...rest, as: session })), session };
    },
    async staffPage(layout, given = {}) {
      return app.open(layout, { ...given, staff: await app.staff.session() });
    },
    async btcPage() {
      btcPage ??= await btcPagePath(running().server.baseUrl);
      return btcPage;
    },
  };
  return app;
}

/** What `useApp` started for the file. */
type Started = {
  server: RunningServer;
  inbox: Inbox;
  browser: Browser;
  staff?: StaffAccount;
  accounts: Map<string, StaffAccount>;
};

/**
 * Starts the file's server (its `after` runs once it stopped) with its staff accounts, then
 * Chromium; stopped in the reverse order. Answers what started, once it has.
 */
function startedForTheFile(options: AppOptions): () => Started {
  let started: Started | undefined;
  let server: StartedServer | undefined;
  useServer(
    {
      ...(options.env ? { env: options.env } : {}),
      ...(options.staff || options.moreStaff
        ? { staff: [...(options.staff ? [options.staff] : []), ...(options.moreStaff ?? [])] }
        : {}),
      ...(options.after ? { after: options.after } : {}),
      ...(options.database ? { database: options.database } : {}),
      timeout: options.timeout ?? 180_000,
      // A browser file's server is its own: its start is a small part of the file, and files on a
      // worker's shared server measured no faster (support/integration.ts).
      own: true,
    },
    (s) => {
      server = s;
    },
  );
  beforeAll(async () => {
    if (!server) throw new Error('the server did not start');
    const browser = await workerBrowser();
    const account = (s: { email: string; role: StaffRoleName }) =>
      new StaffAccount(
        s.email,
        s.role,
        server?.oneTimePasswords[s.email] ?? '',
        server?.server.baseUrl ?? '',
      );
    const staff = options.staff ? account(options.staff) : undefined;
    const accounts = new Map((options.moreStaff ?? []).map((s) => [s.email, account(s)]));
    started = { server: server.server, inbox: server.inbox, browser, accounts, ...(staff ? { staff } : {}) };
  }, 60_000);
  return () => {
    if (!started) throw new Error('the app has not started (useApp must be called at the top of the file)');
    return started;
  };
}

/** A fresh browser context at `baseUrl`, seeded as `given` says (language, sessions, quiet quotes). */
async function seededContext(
  pool: ContextPool,
  layout: Layout,
  baseUrl: string,
  given: OpenOptions,
): Promise<BrowserContext> {
  const context = await pool.take(
    {
      layout,
      baseURL: baseUrl,
      locale: given.locale ?? 'en-US',
      ...(given.width ? { width: given.width } : {}),
      quiet: given.quiet ?? false,
    },
    given.serviceWorker ? 'allow' : 'block',
  );
  await context.addInitScript(
    ({ welcome, language }) => {
      if (!welcome) sessionStorage.setItem('welcomeShown', '1');
      if (language && !localStorage.getItem('languageSeeded')) {
        localStorage.setItem('languageSeeded', '1');
        localStorage.setItem('language', language);
      }
    },
    { welcome: given.welcome ?? false, language: given.language ?? '' },
  );
  if (given.as)
    // Seeded once per context, so a logout or a 401 in the test sticks.
    await context.addInitScript((session) => {
      if (localStorage.getItem('seeded')) return;
      localStorage.setItem('seeded', '1');
      localStorage.setItem('token', session.token);
      localStorage.setItem('isLogin', 'true');
      localStorage.setItem('userInfo', JSON.stringify(session.userInfo));
    }, given.as);
  if (given.staff)
    await context.addInitScript((session) => {
      sessionStorage.setItem('staffToken', session.token);
      sessionStorage.setItem('staffInfo', JSON.stringify(session.staff));
    }, given.staff);
  return context;
}

/**
 * A test's pages do not outlive it: a page left open keeps drawing live prices beside the next
 * tests (what a file opens before its tests, in beforeAll, stays open for them, and is closed with
 * the file; the worker's browser stays for the next file).
 */
function closedWithTheirTest(): (context: BrowserContext) => void {
  const ofTest = new Set<BrowserContext>();
  const ofFile = new Set<BrowserContext>();
  let inTest = false;
  const close = async (contexts: Set<BrowserContext>) => {
    const closing = [...contexts];
    contexts.clear();
    await Promise.all(closing.map((context) => context.close().catch(() => undefined)));
  };
  beforeEach(() => {
    inTest = true;
  });
  afterEach(async () => {
    inTest = false;
    await close(ofTest);
  });
  afterAll(() => close(ofFile));
  return (context) => {
    (inTest ? ofTest : ofFile).add(context);
  };
}

/** A page of the customer in the live book (loans and smart plans are live-book only). */
export async function openInLiveBook(
  app: App,
  layout: Layout,
  session: Session,
  language = 'en',
): Promise<Opened> {
  const opened = await app.open(layout, { as: session, language, quiet: true });
  await opened.context.addInitScript(() => {
    if (!localStorage.getItem('bookSeeded')) {
      localStorage.setItem('bookSeeded', '1');
      localStorage.setItem('virtual', '0');
    }
  });
  return opened;
}
