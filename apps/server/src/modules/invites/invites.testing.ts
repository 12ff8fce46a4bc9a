import type { Book } from '@swx/contract';
import type { Chain } from '../../platform/chain.ts';
import type { Database } from '../../platform/db.ts';
import { createTestContext, deposit, type TestContext } from '../../test/context.ts';
import { testLoans } from '../../test/loans.ts';
import { testWallet } from '../../test/wallet.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { LedgerFacts } from '../ledger/ledger.facts.ts';
import { type LedgerService, MARGIN } from '../ledger/ledger.service.ts';
import { InvitesService } from './invites.service.ts';

/**
 * The invites module on a test context's real services, as the module builds it, on an injected
 * clock: identity's registration hook installed, KYC with its compliance review (`verify`), the
 * wallet's known addresses as the port (on `chain` when given), the ledger's facts. `register` signs a customer up
 * with an invite code as the web form does; `trade` books a live or demo position's opening and
 * closing as trading posts them (the fee to the `fees` account at the opening).
 */
export async function testInvites(db: Database, clock: { now: number }, chain: Chain | null = null) {
  const now = () => clock.now;
  const ctx = await createTestContext(db, { now });
  const loans = await testLoans(ctx);
  const wallet = testWallet(ctx, { now, chain });
  const customers = new CustomerDirectory(db);
  const invites = new InvitesService({
    db,
    ledger: ctx.ledger,
    facts: new LedgerFacts(db),
    kyc: loans.kyc,
    params: loans.params,
    audit: ctx.audit,
    notices: ctx.notices,
    customers,
    addresses: (ids) => wallet.wallet.knownAddresses(ids),
    usdtPrice: (asset) => (asset === 'BTC' ? '50000' : asset === 'USDT' ? '1' : null),
    now,
  });
  ctx.identity.useRegistrationHook(invites.registrationHook());
  let n = 0;

  /** Registers through identity with an invite code (and a device cookie), as the form does. */
  async function register(
    inviteCode: string | undefined,
    options: { email?: string; device?: string | null } = {},
  ): Promise<{ id: number; email: string }> {
    const email = options.email ?? `friend${process.pid}x${++n}@example.com`;
    const client = { ip: `10.77.${n >> 8}.${n & 255}`, userAgent: 'invites-test', language: 'en' as const };
    await ctx.identity.sendCode({ email, purpose: 'register' }, client);
    const code = /\b(\d{6})\b/.exec(ctx.mail.findLast((m) => m.to === email)?.text ?? '')?.[1] ?? '';
    const answer = await ctx.identity.register(
      { userName: email, password: 'a test passphrase', password2: 'a test passphrase', code, inviteCode },
      { ...client, device: options.device ?? null },
    );
    return { id: answer.userInfo.id, email };
  }

  /** A friend made to qualify: verified, a live deposit, a first live trade (with `fee`). */
  async function qualify(userId: number, fee = 1_000_000n, name?: { firstName: string; lastName: string }) {
    await loans.verify(userId, name);
    const credited = await deposit(ctx.ledger, userId, 1_000_000_000n, {
      key: `test-deposit:invites:${userId}`,
    });
    await trade(ctx.ledger, userId, fee, `first:${userId}`);
    return credited;
  }

  return {
    ctx,
    invites,
    wallet,
    loans,
    customers,
    register,
    trade: (userId: number, fee: bigint, key: string, book: Book = 'live', close = true) =>
      trade(ctx.ledger, userId, fee, key, book, close),
    swap: (userId: number, fee: bigint, key: string, book: Book = 'live') =>
      swap(ctx.ledger, userId, fee, key, book),
    qualify,
  };
}

/**
 * A position opened with `fee` (minor units of USDT) and, unless `close` is false, closed at its
 * price, as trading books them; answers the opening entry.
 */
export async function trade(
  ledger: LedgerService,
  userId: number,
  fee: bigint,
  key: string,
  book: Book = 'live',
  close = true,
): Promise<number> {
  const margin = 10_000_000n;
  const wallet = await ledger.walletAccount(book, userId, 'USDT');
  const held = await ledger.accountId(book, userId, 'USDT', MARGIN);
  const opened = await ledger.transfer({
    book,
    kind: 'trade_margin',
    idempotencyKey: `test-open:${key}`,
    actor: `user:${userId}`,
    postings: [
      { accountId: wallet, amount: -(margin + fee) },
      { accountId: held, amount: margin },
      ...(fee > 0n ? [{ accountId: await ledger.systemAccount(book, 'USDT', 'fees'), amount: fee }] : []),
    ],
  });
  if (!close) return opened.entryId;
  await ledger.transfer({
    book,
    kind: 'trade_pnl',
    idempotencyKey: `test-close:${key}`,
    actor: 'system:trading',
    postings: [
      { accountId: held, amount: -margin },
      { accountId: wallet, amount: margin },
    ],
  });
  return opened.entryId;
}

/** A swap of USDT for BTC as swap posts it: the fee (satoshis) to the BTC `fees` account; answers its entry. */
export async function swap(
  ledger: LedgerService,
  userId: number,
  fee: bigint,
  key: string,
  book: Book = 'live',
): Promise<number> {
  const paid = 5_000_000n;
  const gross = 10_000n;
  const made = await ledger.transfer({
    book,
    kind: 'swap',
    idempotencyKey: `test-swap:${key}`,
    actor: `customer:${userId}`,
    postings: [
      { accountId: await ledger.walletAccount(book, userId, 'USDT'), amount: -paid },
      { accountId: await ledger.systemAccount(book, 'USDT', 'house_pnl'), amount: paid },
      { accountId: await ledger.systemAccount(book, 'BTC', 'house_pnl'), amount: -gross },
      { accountId: await ledger.walletAccount(book, userId, 'BTC'), amount: gross - fee },
      { accountId: await ledger.systemAccount(book, 'BTC', 'fees'), amount: fee },
    ],
  });
  return made.entryId;
}

export type TestInvites = Awaited<ReturnType<typeof testInvites>>;
export type { TestContext };
