import type { HoldRow, NewHold, NewPosting } from './ledger.batch.repository.ts';
import {
  type Accepted,
  conflict,
  type Effect,
  holdKeyOf,
  keyOf,
  keySlot,
  type Locked,
  type Operation,
  type Outcomes,
  type Pending,
  type Stored,
  type Written,
} from './ledger.operations.ts';
import { type AccountRow, COMPOUND_LINE } from './ledger.repository.ts';
import {
  type CreditHold,
  type HoldRequest,
  LedgerError,
  type PostHoldRequest,
  type TransferRequest,
  type VoidHoldRequest,
} from './ledger.types.ts';

/*
 * The middle of a ledger batch, in memory: each operation replayed from its stored key, planned
 * against the locked rows, and accepted or refused on the balances as the operations before it
 * left them. Nothing here touches the database.
 */

/**
 * Applies the batch in order to the locked balances: each operation is replayed, refused or
 * accepted on its own, exactly as if it ran alone after the ones before it.
 */
export function applyBatch(
  batch: Pending[],
  locked: Locked,
  stored: Stored,
): { outcomes: Outcomes; accepted: Accepted[]; replayOf: Map<Pending, Pending> } {
  const outcomes: Outcomes = new Map();
  const accepted: Accepted[] = [];
  const replayOf = new Map<Pending, Pending>();
  const keyHashes = new Map<string, string>();
  const live = new RunningBalances(locked.accounts);
  for (const item of batch) {
    const slot = keySlot(item.op);
    // The same key twice in one batch: the later one follows the first.
    const earlierHash = keyHashes.get(slot);
    if (earlierHash !== undefined) {
      if (earlierHash !== item.hash) outcomes.set(item, conflict(keyOf(item.op)));
      else {
        const key = keyOf(item.op);
        const first = batch.find((p) => p !== item && keyOf(p.op) === key && p.hash === item.hash);
        if (first) replayOf.set(item, first);
      }
      continue;
    }
    const replay = replayOfStored(item, stored);
    if (replay) {
      outcomes.set(item, replay);
      continue;
    }
    // A transfer's hold (`holdCredit`) takes its key among the holds' as a hold does.
    const holdSlot = item.op.type === 'transfer' ? holdKeyOf(item.op) : null;
    if (holdSlot !== null && keyHashes.has(`hold:${holdSlot}`)) {
      outcomes.set(item, conflict(holdSlot));
      continue;
    }
    const effect = plan(item.op, item.hash, locked);
    if (effect instanceof LedgerError) {
      outcomes.set(item, effect);
      continue;
    }
    const refused = live.refusal(effect);
    if (refused !== null) {
      outcomes.set(
        item,
        new LedgerError(
          'insufficient_funds',
          `account ${refused} has insufficient available balance`,
          refused,
        ),
      );
      continue;
    }
    keyHashes.set(slot, item.hash);
    if (holdSlot !== null) keyHashes.set(`hold:${holdSlot}`, item.hash);
    live.add(effect);
    if (effect.resolution) {
      const hold = locked.holds.get(effect.resolution.holdId);
      if (hold)
        locked.holds.set(hold.id, {
          ...hold,
          status: effect.resolution.status,
          resolutionKey: keyOf(item.op),
        });
    }
    accepted.push({ item, effect });
  }
  return { outcomes, accepted, replayOf };
}

/** Balances and held amounts of the locked accounts as the batch's accepted operations change them. */
class RunningBalances {
  private readonly accounts: Map<number, AccountRow>;
  private readonly live = new Map<number, { balance: bigint; held: bigint }>();

  constructor(accounts: Map<number, AccountRow>) {
    this.accounts = accounts;
  }

  private state(id: number): { balance: bigint; held: bigint } | null {
    let s = this.live.get(id);
    if (!s) {
      const a = this.accounts.get(id);
      if (!a) return null;
      s = { balance: a.balance, held: a.held };
      this.live.set(id, s);
    }
    return s;
  }

  /** The first account the effect would leave invalid (held below zero, a customer below zero available), or null. */
  refusal(effect: Effect): number | null {
    for (const [id, d] of effect.deltas) {
      const s = this.state(id);
      const account = this.accounts.get(id);
      if (!s || !account) return id;
      const balance = s.balance + d.balance;
      const held = s.held + d.held;
      if (held < 0n || (!account.allowNegative && balance - held < 0n)) return id;
    }
    return null;
  }

  add(effect: Effect): void {
    for (const [id, d] of effect.deltas) {
      const s = this.state(id);
      if (s) {
        s.balance += d.balance;
        s.held += d.held;
      }
    }
  }
}

/** The stored result of an operation already done under this key, or a conflict if it differed. */
function replayOfStored(item: Pending, stored: Stored): Written | Error | null {
  const key = keyOf(item.op);
  if (item.op.type === 'transfer' || item.op.type === 'post') {
    const entry = stored.entries.get(key);
    const holdKey = holdKeyOf(item.op);
    const hold = holdKey === null ? undefined : stored.holds.get(holdKey);
    if (entry) {
      // A compound entry's line under this key (a bulk run paid it): the transfer is that payment.
      if (entry.requestHash !== item.hash && entry.requestHash !== COMPOUND_LINE) return conflict(key);
      return hold
        ? { entryId: entry.id, createdAt: entry.createdAt, replayed: true, holdId: hold.id }
        : { entryId: entry.id, createdAt: entry.createdAt, replayed: true };
    }
    // The hold's key names a hold that no entry of this request placed.
    if (holdKey !== null && hold) return conflict(holdKey);
  }
  if (item.op.type === 'hold') {
    const hold = stored.holds.get(key);
    if (hold) return hold.requestHash === item.hash ? { holdId: hold.id, replayed: true } : conflict(key);
  }
  if (item.op.type === 'void') {
    const hold = stored.resolutions.get(key);
    if (hold)
      return hold.id === item.op.request.holdId && hold.status === 'voided'
        ? { holdId: hold.id, replayed: true }
        : conflict(key);
  }
  return null;
}

/** What one operation would do, checked against the locked rows; or why it cannot. */
function plan(op: Operation, hash: string, locked: Locked): Effect | LedgerError {
  switch (op.type) {
    case 'transfer':
      return planTransfer(op.request, hash, locked);
    case 'hold':
      return planHold(op.request, hash, locked.accounts);
    case 'void': {
      const hold = pendingHold(op.request.holdId, locked.holds);
      return hold instanceof LedgerError ? hold : planVoid(op.request, hold);
    }
    case 'post': {
      const hold = pendingHold(op.request.holdId, locked.holds);
      return hold instanceof LedgerError ? hold : planPost(op.request, hash, hold, locked.accounts);
    }
  }
}

function planTransfer(r: TransferRequest<unknown>, hash: string, locked: Locked): Effect | LedgerError {
  const { accounts } = locked;
  const deltas = new Map<number, { balance: bigint; held: bigint }>();
  const postings: Omit<NewPosting, 'entryKey'>[] = [];
  const sums = new Map<string, bigint>();
  for (const p of r.postings) {
    const account = accounts.get(p.accountId);
    if (!account) return new LedgerError('unknown_account', `account ${p.accountId} does not exist`);
    if (account.book !== r.book) return new LedgerError('invalid_request', 'a posting may not cross books');
    if (deltas.has(p.accountId))
      return new LedgerError('invalid_request', 'an account appears twice in one entry');
    if (p.amount === 0n) return new LedgerError('invalid_request', 'a posting of zero');
    deltas.set(p.accountId, { balance: p.amount, held: 0n });
    postings.push({ accountId: p.accountId, book: r.book, asset: account.asset, amount: p.amount });
    sums.set(account.asset, (sums.get(account.asset) ?? 0n) + p.amount);
  }
  if (postings.length < 2) return new LedgerError('invalid_request', 'an entry needs at least two postings');
  if ([...sums.values()].some((s) => s !== 0n))
    return new LedgerError('invalid_request', 'postings must net to zero per asset');
  const hold = r.holdCredit ? creditHold(r, r.holdCredit, hash, accounts, deltas) : undefined;
  if (hold instanceof LedgerError) return hold;
  const released = r.releaseHold === undefined ? undefined : release(r, r.releaseHold, locked.holds, deltas);
  if (released instanceof LedgerError) return released;
  return {
    deltas,
    postings,
    ...(hold ? { hold } : {}),
    ...(released ? { resolution: { holdId: released.id, status: 'voided' as const } } : {}),
    entry: {
      book: r.book,
      kind: r.kind,
      idempotencyKey: r.idempotencyKey,
      requestHash: hash,
      reference: r.reference ?? null,
      actor: r.actor,
      reason: r.reason ?? null,
      reversesEntryId: r.reversesEntryId ?? null,
    },
    audit: {
      actor: r.actor,
      action: r.reversesEntryId ? 'ledger.reversal' : `ledger.${r.kind}`,
      subject: '',
      data: {
        book: r.book,
        postings: postings.map((p) => ({ account: p.accountId, asset: p.asset, amount: p.amount })),
        reference: r.reference ?? null,
        reason: r.reason ?? null,
        ...(hold
          ? { hold: { account: hold.accountId, amount: hold.amount, reference: hold.reference } }
          : {}),
        ...(released ? { released: { hold: released.id, amount: released.amount } } : {}),
      },
    },
  };
}

/**
 * The hold a transfer releases (`releaseHold`): its held amount leaves the account's held figure in
 * the entry's own deltas, so the balance checks run on the account as the release leaves it.
 */
function release(
  r: TransferRequest<unknown>,
  holdId: number,
  holds: Map<number, HoldRow>,
  deltas: Map<number, { balance: bigint; held: bigint }>,
): HoldRow | LedgerError {
  const hold = pendingHold(holdId, holds);
  if (hold instanceof LedgerError) return hold;
  if (hold.book !== r.book) return new LedgerError('invalid_request', 'a hold is released within its book');
  const delta = deltas.get(hold.accountId) ?? { balance: 0n, held: 0n };
  delta.held -= hold.amount;
  deltas.set(hold.accountId, delta);
  return hold;
}

/**
 * The hold a transfer places on the account it credits (`holdCredit`): the credited amount, held
 * in the same effect (held grows with the balance), so the account's available amount is never
 * changed by the entry.
 */
function creditHold(
  r: TransferRequest<unknown>,
  h: CreditHold,
  hash: string,
  accounts: Map<number, AccountRow>,
  deltas: Map<number, { balance: bigint; held: bigint }>,
): NewHold | LedgerError {
  const delta = deltas.get(h.accountId);
  const account = accounts.get(h.accountId);
  if (!delta || !account || delta.balance <= 0n)
    return new LedgerError('invalid_request', 'a transfer holds only what it credits to one of its accounts');
  if (h.idempotencyKey.length < 8 || h.idempotencyKey.length > 200)
    return new LedgerError('invalid_request', 'an idempotency key has 8 to 200 characters');
  delta.held = delta.balance;
  return {
    accountId: h.accountId,
    book: r.book,
    asset: account.asset,
    amount: delta.balance,
    idempotencyKey: h.idempotencyKey,
    requestHash: hash,
    reference: h.reference ?? null,
    actor: r.actor,
  };
}

function planHold(
  r: HoldRequest<unknown>,
  hash: string,
  accounts: Map<number, AccountRow>,
): Effect | LedgerError {
  const account = accounts.get(r.accountId);
  if (!account) return new LedgerError('unknown_account', `account ${r.accountId} does not exist`);
  if (account.book !== r.book) return new LedgerError('invalid_request', 'a hold may not cross books');
  if (r.amount <= 0n) return new LedgerError('invalid_request', 'a hold must be positive');
  return {
    deltas: new Map([[r.accountId, { balance: 0n, held: r.amount }]]),
    hold: {
      accountId: r.accountId,
      book: r.book,
      asset: account.asset,
      amount: r.amount,
      idempotencyKey: r.idempotencyKey,
      requestHash: hash,
      reference: r.reference ?? null,
      actor: r.actor,
    },
    audit: {
      actor: r.actor,
      action: 'ledger.hold',
      subject: '',
      data: {
        book: r.book,
        account: r.accountId,
        asset: account.asset,
        amount: r.amount,
        reference: r.reference ?? null,
      },
    },
  };
}

/** The hold a post or void names, if it is still pending. */
function pendingHold(holdId: number, holds: Map<number, HoldRow>): HoldRow | LedgerError {
  const hold = holds.get(holdId);
  if (!hold) return new LedgerError('unknown_hold', `hold ${holdId} does not exist`);
  if (hold.status !== 'pending')
    return new LedgerError('hold_not_pending', `hold ${hold.id} is ${hold.status}`);
  return hold;
}

function planVoid(r: VoidHoldRequest<unknown>, hold: HoldRow): Effect {
  return {
    deltas: new Map([[hold.accountId, { balance: 0n, held: -hold.amount }]]),
    resolution: { holdId: hold.id, status: 'voided' },
    audit: {
      actor: r.actor,
      action: 'ledger.hold_void',
      subject: `ledger_hold:${hold.id}`,
      data: { hold: hold.id, amount: hold.amount },
    },
  };
}

function planPost(
  r: PostHoldRequest<unknown>,
  hash: string,
  hold: HoldRow,
  accounts: Map<number, AccountRow>,
): Effect | LedgerError {
  const to = accounts.get(r.toAccountId);
  if (!to) return new LedgerError('unknown_account', `account ${r.toAccountId} does not exist`);
  const also = r.also ? accounts.get(r.also.accountId) : null;
  if (r.also && !also)
    return new LedgerError('unknown_account', `account ${r.also.accountId} does not exist`);
  const targets = also && r.also ? [to, also] : [to];
  if (targets.some((a) => a.book !== hold.book || a.asset !== hold.asset))
    return new LedgerError('invalid_request', 'a hold posts within its book and asset');
  const extra = r.also?.amount ?? 0n;
  if (r.amount <= 0n || (r.also && extra <= 0n) || r.amount + extra > hold.amount)
    return new LedgerError('invalid_request', 'a hold posts at most its amount');
  if (targets.some((a) => a.id === hold.accountId) || also?.id === to.id)
    return new LedgerError('invalid_request', 'a hold posts to another account');
  const credits = also
    ? [
        { id: to.id, amount: r.amount },
        { id: also.id, amount: extra },
      ]
    : [{ id: to.id, amount: r.amount }];
  return {
    deltas: new Map([
      [hold.accountId, { balance: -(r.amount + extra), held: -hold.amount }],
      ...credits.map((c) => [c.id, { balance: c.amount, held: 0n }] as const),
    ]),
    postings: [
      { accountId: hold.accountId, book: hold.book, asset: hold.asset, amount: -(r.amount + extra) },
      ...credits.map((c) => ({ accountId: c.id, book: hold.book, asset: hold.asset, amount: c.amount })),
    ],
    entry: {
      book: hold.book,
      kind: r.kind,
      idempotencyKey: r.idempotencyKey,
      requestHash: hash,
      reference: r.reference ?? null,
      actor: r.actor,
      reason: null,
      reversesEntryId: null,
    },
    resolution: { holdId: hold.id, status: 'posted' },
    audit: {
      actor: r.actor,
      action: `ledger.${r.kind}`,
      subject: '',
      data: {
        hold: hold.id,
        from: hold.accountId,
        to: to.id,
        asset: hold.asset,
        amount: r.amount,
        ...(also ? { also: also.id, alsoAmount: extra } : {}),
      },
    },
  };
}
