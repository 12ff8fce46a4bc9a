import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Asset, Book, Language, Position, StaffRole, TicketBody } from '@swx/contract';
import { AuditService } from '../modules/audit/audit.service.ts';
import { IdentityService } from '../modules/identity/identity.service.ts';
import { base32Decode, totpCode } from '../modules/identity/identity.totp.ts';
import { type EntryResult, LedgerService } from '../modules/ledger/ledger.service.ts';
import { NoticesService } from '../modules/notices/notices.service.ts';
import type { PositionsService } from '../modules/positions/positions.service.ts';
import { StaffService, type StaffSession } from '../modules/staff/staff.service.ts';
import type { Database } from '../platform/db.ts';
import type { CustomerSession } from '../platform/http.ts';
import { KeyRing } from '../platform/keys.ts';
import { createMailer, type Mailer, type MailMessage } from '../platform/mail.ts';
import { createMemoryRateLimiter } from '../platform/ratelimit.ts';

/**
 * A test context built from the real services, with builders for what a test starts from: a
 * customer registered through the identity service (mailed code and all) whose books the ledger
 * opened, money deposited through the ledger, a staff member created and enrolled through the
 * staff service. No row is written behind a service's back, so what a builder makes is what the
 * product makes. Pass a test's own service instances (e.g. with its clock) to build on them.
 *
 *   const ctx = await createTestContext(t.db);
 *   const ada = await ctx.customer({ live: 50_000_000_000n }); // 50,000 USDT in the live book
 *   const reviewer = await ctx.staffMember('compliance');
 */
export type TestCustomer = { id: number; userName: string; email: string; password: string; token: string };
export type TestStaff = {
  id: number;
  email: string;
  role: StaffRole;
  token: string;
  secret: string;
  session: StaffSession;
};

export type TestContextOptions = {
  /** The clock of identity and staff (TOTP codes are computed on it); Date.now by default. */
  now?: () => number;
  audit?: AuditService;
  ledger?: LedgerService;
  notices?: NoticesService;
  identity?: IdentityService;
  staff?: StaffService;
  /** The TOTP key of identity and staff (32 bytes), when the context creates them. */
  keys?: KeyRing;
  /** Where mail goes (an outbox folder) when the context creates identity. */
  dataDir?: string;
};

/** Who `ctx.customer` registers: a name or email, password and language; `live` USDT to deposit. */
export type TestCustomerOptions = {
  name?: string;
  email?: string;
  password?: string;
  language?: Language;
  live?: bigint;
};

export type TestContext = {
  db: Database;
  audit: AuditService;
  ledger: LedgerService;
  notices: NoticesService;
  identity: IdentityService;
  staff: StaffService;
  now: () => number;
  /** The mail the context's identity sent (when the context created it), oldest first. */
  mail: MailMessage[];
  /**
   * A customer registered through identity: a code mailed to the address, then the registration
   * (password hashed, books opened with the demo's 100,000 USDT, welcome notice). `live` deposits
   * that much USDT (minor units) into the live book through the ledger.
   */
  customer(options?: TestCustomerOptions): Promise<TestCustomer>;
  /** The identity session of a customer's token, as the routes resolve it. */
  sessionOf(customer: TestCustomer): Promise<CustomerSession>;
  /** Staff of a role, created (one-time password), signed in and enrolled (TOTP) through staff. */
  staffMember(role: StaffRole, email?: string): Promise<TestStaff>;
};

let sequence = 0;
/** A fresh address from 10.0.0.0/8 per registration, so the per-address code limits are not what a test meets. */
const nextAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
const unique = () => `${process.pid}${Date.now().toString(36)}${(++sequence).toString(36)}`;

/**
 * A deposit through the ledger, as the deposit flow books it: external clearing → the customer's
 * wallet in `book`, one balanced entry with a deterministic key (a repeat deposits nothing more).
 */
export async function deposit(
  ledger: LedgerService,
  userId: number,
  amount: bigint,
  options: { book?: Book; asset?: Asset; key?: string } = {},
): Promise<EntryResult> {
  const book = options.book ?? 'live';
  const asset = options.asset ?? 'USDT';
  return ledger.transfer({
    book,
    kind: 'deposit',
    idempotencyKey: options.key ?? `test-deposit:${book}:${asset}:${userId}`,
    actor: 'system',
    reference: `test:${userId}`,
    postings: [
      { accountId: await ledger.systemAccount(book, asset, 'external_clearing'), amount: -amount },
      { accountId: await ledger.walletAccount(book, userId, asset), amount },
    ],
  });
}

/**
 * A position opened through trading as a customer opens one: quote, then commit (the preview's
 * quote id for this customer and book, then the opening that names it). For tests whose subject
 * is not the opening itself.
 */
export async function openPosition(
  trading: PositionsService,
  customer: { id: number },
  ticket: TicketBody,
  options: { book?: Book; language?: Language; requestId?: string } = {},
): Promise<Position> {
  const book = options.book ?? 'demo';
  const { quoteId } = trading.preview(ticket, { customerId: customer.id, book });
  return trading.open(customer.id, book, options.language ?? 'en', {
    ...ticket,
    quoteId,
    requestId: options.requestId ?? `test-open:${unique()}`,
  });
}

/** Records every message a mailer sends, and sends it. */
export function recording(mailer: Mailer, sent: MailMessage[]): Mailer {
  return {
    kind: mailer.kind,
    async send(message) {
      sent.push(message);
      return mailer.send(message);
    },
    close: () => mailer.close(),
  };
}

export async function createTestContext(
  db: Database,
  options: TestContextOptions = {},
): Promise<TestContext> {
  const now = options.now ?? Date.now;
  const keys = options.keys ?? new KeyRing(Buffer.alloc(32, 3));
  const audit = options.audit ?? new AuditService(db);
  const ledger = options.ledger ?? new LedgerService(db, audit, undefined, { now });
  await ledger.ensureSystemAccounts();
  const notices = options.notices ?? new NoticesService(db, now);
  const mail: MailMessage[] = [];
  const identity =
    options.identity ??
    new IdentityService({
      db,
      mailer: recording(
        createMailer({
          from: 'SWX tests <tests@swx.test>',
          dataDir: options.dataDir ?? mkdtempSync(join(tmpdir(), 'swx-context-')),
        }),
        mail,
      ),
      rateLimiter: createMemoryRateLimiter(),
      ledger,
      notices,
      audit,
      keys,
      now,
    });
  const staff =
    options.staff ?? new StaffService({ db, audit, rateLimiter: createMemoryRateLimiter(), keys, now });
  const built = { db, audit, ledger, notices, identity, staff, now, mail };
  return {
    ...built,
    customer: (given = {}) => registerCustomer(built, given, Boolean(options.identity)),
    async sessionOf(customer) {
      const session = await identity.resolveSession(customer.token);
      if (!session) throw new Error(`no session for customer ${customer.id}`);
      return session;
    },
    staffMember: (role, email = `${role}${unique()}@staff.swx.test`) => enrolStaff(built, role, email),
  };
}

type Built = Omit<TestContext, 'customer' | 'sessionOf' | 'staffMember'>;

/** The code identity mailed to an address last (its register code). */
function codeMailedTo(ctx: Built, email: string, givenIdentity: boolean): string {
  const message = ctx.mail.findLast((m) => m.to === email);
  const code = message ? /\b(\d{6})\b/.exec(message.text)?.[1] : undefined;
  if (!code)
    throw new Error(
      givenIdentity
        ? 'ctx.customer needs the identity the context created (it reads the code from its mail)'
        : `no code was mailed to ${email}`,
    );
  return code;
}

/** `ctx.customer`: a customer registered through identity, `live` USDT deposited through the ledger. */
async function registerCustomer(
  ctx: Built,
  given: TestCustomerOptions,
  givenIdentity: boolean,
): Promise<TestCustomer> {
  const n = ++sequence;
  const email = (
    given.email ?? (given.name?.includes('@') ? given.name : `customer${unique()}@example.test`)
  ).toLowerCase();
  const userName = given.name ?? email;
  const password = given.password ?? 'a test passphrase';
  const client = { ip: nextAddress(n), userAgent: 'swx-test-context', language: given.language ?? 'en' };
  await ctx.identity.sendCode({ email, purpose: 'register' }, client);
  const registered = await ctx.identity.register(
    {
      userName,
      ...(userName === email ? {} : { email }),
      password,
      password2: password,
      code: codeMailedTo(ctx, email, givenIdentity),
    },
    client,
  );
  const id = registered.userInfo.id;
  if (given.live) await deposit(ctx.ledger, id, given.live);
  return { id, userName, email, password, token: registered.token };
}

/** `ctx.staffMember`: staff created (one-time password), signed in and enrolled (TOTP) through staff. */
async function enrolStaff(ctx: Built, role: StaffRole, email: string): Promise<TestStaff> {
  const { staff, now } = ctx;
  const client = { ip: nextAddress(++sequence), userAgent: 'swx-test-context' };
  const { oneTimePassword } = await staff.create({ email, role }, null);
  const first = await staff.signIn({ email, password: oneTimePassword }, client);
  if (first.step !== 'enrol') throw new Error(`staff sign-in answered ${first.step}, not the enrolment`);
  const signedIn = await staff.enrol(
    {
      challenge: first.challenge,
      code: totpCode(base32Decode(first.secret), now()),
      newPassword: 'a long staff passphrase',
    },
    client,
  );
  const session = await staff.resolveSession(signedIn.token);
  if (!session) throw new Error(`no session for staff ${email}`);
  return { ...signedIn.staff, token: signedIn.token, secret: first.secret, session };
}
