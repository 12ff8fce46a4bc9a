import {
  ASSET_SCALES,
  type Asset,
  BOOKS,
  type Book,
  type TransactionSwap,
  valueAtPrice,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import {
  type Balance,
  balanceOf,
  EARN,
  type HeldBalance,
  heldBalanceOf,
  MARGIN,
  SMART,
  WALLET,
} from './ledger.balances.ts';
import { LedgerBatcher, type LedgerOptions } from './ledger.batch.ts';
import { type BulkRequest, type BulkResult, LedgerBulk } from './ledger.bulk.ts';
import {
  type EntryLine,
  entriesOfOwner,
  entryById,
  entryLinesOfOwner,
  postingsOfEntries,
  postingsOfEntry,
} from './ledger.entries.repository.ts';
import { eventOf } from './ledger.events.ts';
import {
  type AccountRow,
  accountById,
  accountsOfOwner,
  accountsOfOwnerWithHolds,
  accountWithUsedKeys,
  customerTotals,
  ensureAccount,
  ensureCustomerAccounts,
  ensureSystemAccountSet,
  ledgerInvariants,
  nonZeroAccountsOfKind,
  reconcileAccounts,
} from './ledger.repository.ts';
import { customerSnapshot, type SnapshotAccount } from './ledger.snapshot.repository.ts';
import {
  type AttachmentWriter,
  type EntryAttachment,
  type EntryKind,
  type EntryResult,
  type HoldAttached,
  type HoldAttachment,
  type HoldRequest,
  type HoldResult,
  type HoldTarget,
  LedgerError,
  ledgerErrorCode,
  type PostHoldRequest,
  type TransferRequest,
  type VoidHoldRequest,
} from './ledger.types.ts';

export type {
  AttachmentWriter,
  Balance,
  Book,
  EntryAttachment,
  EntryKind,
  EntryResult,
  HeldBalance,
  HoldAttached,
  HoldAttachment,
  HoldResult,
  HoldTarget,
  PostHoldRequest,
  TransferRequest,
};
export { BOOKS, EARN, LedgerError, ledgerErrorCode, MARGIN, SMART, WALLET };

export const ASSETS = Object.keys(ASSET_SCALES) as Asset[];

/** System accounts, one per book and asset. They may go negative where double entry needs it. */
export const SYSTEM_KINDS = [
  'fees',
  'house_pnl',
  'yield_reserve',
  'charity',
  'loans_receivable',
  'pending_withdrawals',
  'external_clearing',
  'demo_issuance',
] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];

/** A product's own platform account: `<name>_<product id>`, never negative. */
const PRODUCT_ACCOUNT = /^[a-z][a-z_]{1,24}_\d{1,12}$/;

/** Virtual money a demo book starts with, and returns to on reset: 100,000 USDT. */
export const DEMO_FUNDING_MINOR = 100_000n * 10n ** BigInt(ASSET_SCALES.USDT);

/** What another module knows of its entries: the order (as the order detail shows it) and more. */
export type EntryDetail = {
  orderNo: string | null;
  instrument: string | null;
  closeReason: string | null;
  /** A swap entry's figures, as its module states them. */
  swap?: TransactionSwap;
};
/** Describes the given entries of one kind (ids of the caller's own entries only). */
export type EntryDescriber = (entryIds: readonly number[]) => Promise<Map<number, EntryDetail>>;

/** One economic event of a customer's record: an entry, its meaning in figures, and its postings. */
export type LedgerEvent = {
  entryId: number;
  kind: string;
  createdAt: string;
  reversedBy: number | null;
  reversesEntryId: number | null;
  reference: string | null;
  detail: EntryDetail | null;
  /** The asset of margin, fee and result: the one its fee was paid in, else the first the entry changed for the customer. */
  asset: string;
  /** Change of the customer's total (wallet + margin) per asset. */
  changes: { asset: string; amount: bigint }[];
  /** Set aside (+) or released (−) into the customer's margin account; null when untouched. */
  margin: bigint | null;
  /** Paid to the platform's fee account; null when the entry has no fee posting. */
  fee: bigint | null;
  /** Realised result: on an entry that releases margin, the change of the total; else null. */
  result: bigint | null;
  postings: { account: string; own: boolean; asset: string; amount: bigint }[];
};

export type ValuedBalance = HeldBalance & { valueUsdtMinor: bigint | null };

/**
 * The ledger: the only code that changes a balance. Every change is a balanced double-entry
 * posting with an idempotency key, written through the batcher (group commit), audited in the
 * same transaction. Other modules call this service; none touch its tables.
 */
export class LedgerService {
  private readonly db: Database;
  private readonly batcher: LedgerBatcher;
  private readonly bulk: LedgerBulk;
  private readonly accountIds = new Map<string, number>();
  private readonly describers = new Map<string, EntryDescriber>();

  /** `limits.maxQueued`: operations that may wait for a batch at once (LEDGER_MAX_QUEUED); more are refused with 10031. */
  constructor(db: Database, audit: AuditService, logger?: Logger, limits: LedgerOptions = {}) {
    this.db = db;
    this.batcher = new LedgerBatcher(db, audit, logger, limits);
    this.bulk = new LedgerBulk(db, audit, limits.now ?? Date.now);
  }

  get stats() {
    return this.batcher.stats;
  }

  /** The id of an account, created on first use (identities never change, so they are cached). */
  async accountId(book: Book, ownerId: number | null, asset: Asset, kind: string): Promise<number> {
    const cacheKey = `${book}:${ownerId ?? 0}:${asset}:${kind}`;
    const cached = this.accountIds.get(cacheKey);
    if (cached !== undefined) return cached;
    if (ownerId === null && !(SYSTEM_KINDS as readonly string[]).includes(kind))
      throw new Error(`unknown system account ${kind}`);
    const id = await ensureAccount(this.db, { book, ownerId, asset, kind, allowNegative: ownerId === null });
    this.accountIds.set(cacheKey, id);
    return id;
  }

  /** The accounts of one kind of many customers (created on first use, cached): owner id → account id. */
  async customerAccounts(
    book: Book,
    ownerIds: readonly number[],
    asset: Asset,
    kind: string,
  ): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const missing: number[] = [];
    for (const owner of new Set(ownerIds)) {
      const cached = this.accountIds.get(`${book}:${owner}:${asset}:${kind}`);
      if (cached === undefined) missing.push(owner);
      else out.set(owner, cached);
    }
    for (const [owner, id] of await ensureCustomerAccounts(this.db, book, missing, asset, kind)) {
      this.accountIds.set(`${book}:${owner}:${asset}:${kind}`, id);
      out.set(owner, id);
    }
    return out;
  }

  /**
   * A platform account of one product (no owner), which may NOT go negative: e.g. an earn
   * product's reserve `earn_reserve_12`. The database refuses any posting that would overdraw it.
   */
  async productAccount(book: Book, asset: Asset, kind: string): Promise<number> {
    if (!PRODUCT_ACCOUNT.test(kind)) throw new Error(`${kind} is not a product account kind`);
    const cacheKey = `${book}:0:${asset}:${kind}`;
    const cached = this.accountIds.get(cacheKey);
    if (cached !== undefined) return cached;
    const id = await ensureAccount(this.db, { book, ownerId: null, asset, kind, allowNegative: false });
    this.accountIds.set(cacheKey, id);
    return id;
  }

  systemAccount(book: Book, asset: Asset, kind: SystemKind): Promise<number> {
    return this.accountId(book, null, asset, kind);
  }

  walletAccount(book: Book, userId: number, asset: Asset): Promise<number> {
    return this.accountId(book, userId, asset, WALLET);
  }

  /** Every book's system accounts of every asset, created where missing (at start, in one go). */
  async ensureSystemAccounts(): Promise<void> {
    const wanted = BOOKS.flatMap((book) =>
      ASSETS.flatMap((asset) => SYSTEM_KINDS.map((kind) => ({ book, asset, kind }))),
    );
    for (const [key, id] of await ensureSystemAccountSet(this.db, wanted)) {
      const [book, asset, kind] = key.split(':');
      this.accountIds.set(`${book}:0:${asset}:${kind}`, id);
    }
  }

  /**
   * Opens a new customer's books: a wallet per asset in demo and live, and the demo book's
   * 100,000 virtual USDT, issued from the demo book's own issuance account (never the live book).
   */
  async openCustomerBooks(userId: number): Promise<void> {
    for (const book of BOOKS) for (const asset of ASSETS) await this.walletAccount(book, userId, asset);
    await this.transfer({
      book: 'demo',
      kind: 'demo_funding',
      idempotencyKey: `demo-funding:${userId}`,
      actor: 'system',
      reference: `user:${userId}`,
      postings: [
        { accountId: await this.systemAccount('demo', 'USDT', 'demo_issuance'), amount: -DEMO_FUNDING_MINOR },
        { accountId: await this.walletAccount('demo', userId, 'USDT'), amount: DEMO_FUNDING_MINOR },
      ],
    });
  }

  /** Lets another module name its entries in the customer's record (order number, instrument). */
  registerDescriber(kind: EntryKind, describer: EntryDescriber): void {
    this.describers.set(kind, describer);
  }

  /**
   * The attachment of one entry kind: a record the module owning the kind writes in the same
   * transaction as each entry (`transfer({ kind, attach: attachment.with(data) })`), typed by its
   * data D and by what its writer answers R (`EntryResult.attached`). Registered once per kind.
   */
  attachment<D, R>(kind: EntryKind, writer: AttachmentWriter<D, R>): EntryAttachment<D, R> {
    return this.batcher.attachment(kind, writer);
  }

  /**
   * A hold attachment: a record the owning module writes in the same transaction as a hold, its
   * post or its void (`postHold({ …, attach: attachment.with(data) })`), after the hold's change,
   * typed by its data D and by what its writer answers R per hold id (`attached`). A writer that
   * throws refuses that operation: nothing of it is written. Registered once per name.
   */
  holdAttachment<D, R>(name: string, writer: AttachmentWriter<D, R, HoldTarget>): HoldAttachment<D, R> {
    return this.batcher.holdAttachment(name, writer);
  }

  async transfer<R = never>(request: TransferRequest<R>): Promise<EntryResult<R>> {
    validateKey(request.idempotencyKey);
    return this.batcher.transfer(request);
  }

  /**
   * Releases (voids) a pending hold and writes an entry as ONE operation in one transaction: the
   * balance checks are made after the release, both are written or neither, the audit row names
   * both, and the same key and request again answer the first entry. What the entry does not take
   * of the released amount is simply available again (a pending order's fill opens its position
   * with the money its hold kept).
   */
  async releaseAndTransfer<R = never>(
    holdId: number,
    request: Omit<TransferRequest<R>, 'releaseHold'>,
  ): Promise<EntryResult<R>> {
    validateKey(request.idempotencyKey);
    return this.batcher.transfer({ ...request, releaseHold: holdId });
  }

  /** Many transfers in ONE batch (one transaction), each accepted or refused on its own, in order. */
  async transfers<R = never>(requests: readonly TransferRequest<R>[]) {
    for (const request of requests) validateKey(request.idempotencyKey);
    return this.batcher.transfers(requests);
  }

  /** A page of payments from one source as one compound entry, in one transaction (`ledger.bulk.ts`). */
  postCompound(request: BulkRequest): Promise<BulkResult> {
    return this.bulk.post(request);
  }

  async hold<R = never>(request: HoldRequest<R>): Promise<HoldResult<R>> {
    validateKey(request.idempotencyKey);
    return this.batcher.hold(request);
  }

  async postHold<R = never>(request: PostHoldRequest<R>): Promise<EntryResult<R>> {
    validateKey(request.idempotencyKey);
    return this.batcher.postHold(request);
  }

  async voidHold<R = never>(request: VoidHoldRequest<R>): Promise<HoldResult<R>> {
    validateKey(request.idempotencyKey);
    return this.batcher.voidHold(request);
  }

  /** A correction: a new entry with every posting of the original negated, linked to it. */
  async reverse(
    entryId: number,
    by: { actor: string; reason: string; idempotencyKey: string },
  ): Promise<EntryResult> {
    const entry = await entryById(this.db, entryId);
    if (!entry) throw new LedgerError('invalid_request', `entry ${entryId} does not exist`);
    if (entry.reversedBy !== null)
      throw new LedgerError('invalid_request', `entry ${entryId} is already reversed by ${entry.reversedBy}`);
    if (!by.reason.trim()) throw new LedgerError('invalid_request', 'a reversal needs a reason');
    const postings = await postingsOfEntry(this.db, entryId);
    return this.transfer({
      book: entry.book,
      kind: 'reversal',
      idempotencyKey: by.idempotencyKey,
      actor: by.actor,
      reason: by.reason,
      reference: `entry:${entryId}`,
      reversesEntryId: entryId,
      postings: postings.map((p) => ({ accountId: p.accountId, amount: -p.amount })),
    });
  }

  /**
   * Balance, held and available per asset. Margin of open positions, the principal of investments
   * and what smart plans hold are the customer's money, not available to spend: shown as held.
   */
  async balances(book: Book, ownerId: number): Promise<Balance[]> {
    const accounts = await accountsOfOwner(this.db, book, ownerId);
    return ASSETS.map((asset) => balanceOf(accounts, asset));
  }

  /** `balances` with each held figure by what holds it (`heldBy`, adding up to `held`), read in one snapshot. */
  async heldBalances(book: Book, ownerId: number): Promise<HeldBalance[]> {
    const { accounts, holds } = await accountsOfOwnerWithHolds(this.db, book, ownerId);
    return ASSETS.map((asset) => heldBalanceOf(accounts, holds, asset));
  }

  /**
   * Balances with each total valued in USDT minor units at `usdtPriceOf(asset)` (a decimal
   * string, or null when the asset has no price now), plus the priced total and what was unpriced.
   */
  async valuedBalances(
    book: Book,
    ownerId: number,
    usdtPriceOf: (asset: Asset) => string | null,
  ): Promise<{ balances: ValuedBalance[]; totalUsdtMinor: bigint; unpriced: Asset[] }> {
    let totalUsdtMinor = 0n;
    const unpriced: Asset[] = [];
    const balances = (await this.heldBalances(book, ownerId)).map((b) => {
      const price = b.asset === 'USDT' ? '1' : usdtPriceOf(b.asset);
      const valueUsdtMinor =
        price === null ? null : valueAtPrice(b.balance, b.scale, price, ASSET_SCALES.USDT);
      if (valueUsdtMinor === null) {
        if (b.balance !== 0n) unpriced.push(b.asset);
      } else totalUsdtMinor += valueUsdtMinor;
      return { ...b, valueUsdtMinor };
    });
    return { balances, totalUsdtMinor, unpriced };
  }

  /** Customer balances of one account kind that are not zero, per book and owner. */
  async nonZeroBalances(
    kind: string,
    asset: Asset,
  ): Promise<{ book: Book; ownerId: number; balance: bigint }[]> {
    return (await nonZeroAccountsOfKind(this.db, kind, asset)).map((a) => ({
      book: a.book,
      ownerId: a.ownerId ?? 0,
      balance: a.balance,
    }));
  }

  /** What customers hold in a book per asset (the treasury screen sets it beside the hot wallet). */
  customerTotals(book: Book): Promise<Map<string, bigint>> {
    return customerTotals(this.db, book);
  }

  /**
   * Every customer account of a book that is not zero, by owner, asset and kind, read in one
   * REPEATABLE READ snapshot (proof of liabilities): equal to the ledger at that instant.
   */
  customerSnapshot(book: Book): Promise<{ at: string; accounts: SnapshotAccount[] }> {
    return customerSnapshot(this.db, book);
  }

  async account(id: number): Promise<AccountRow | null> {
    return accountById(this.db, id);
  }

  /**
   * An account and which of these idempotency keys already name an entry, read in one snapshot:
   * a job that resumes (the settlement runner) sees each payment in both or in neither.
   */
  accountWithUsedKeys(accountId: number, keys: readonly string[]) {
    return accountWithUsedKeys(this.db, accountId, keys);
  }

  /** Entries that touched a customer's accounts in one book, newest first (keyset pages by entry id). */
  async entriesOf(
    book: Book,
    ownerId: number,
    filter: { kind?: string; asset?: string; from?: string; to?: string; beforeId?: number; limit: number },
  ): Promise<EntryLine[]> {
    return entryLinesOfOwner(this.db, { book, ownerId, ...filter });
  }

  /**
   * A customer's record in one book: one event per entry that touched their accounts, newest first
   * (keyset pages by entry id), with every posting of the entry and what it means in figures.
   */
  async eventsOf(
    book: Book,
    ownerId: number,
    filter: { kind?: string; asset?: string; from?: string; to?: string; beforeId?: number; limit: number },
  ): Promise<LedgerEvent[]> {
    const entries = await entriesOfOwner(this.db, { book, ownerId, ...filter });
    const postings = await postingsOfEntries(
      this.db,
      entries.map((e) => e.entryId),
    );
    const details = new Map<number, EntryDetail>();
    for (const [kind, describe] of this.describers) {
      const ids = entries.filter((e) => e.kind === kind).map((e) => e.entryId);
      if (ids.length > 0) for (const [id, detail] of await describe(ids)) details.set(id, detail);
    }
    return entries.map((entry) =>
      eventOf(
        entry,
        postings.filter((p) => p.entryId === entry.entryId),
        ownerId,
        details.get(entry.entryId) ?? null,
      ),
    );
  }

  /**
   * Resets a demo book: every asset back to zero and USDT back to 100,000, as one entry against
   * the demo issuance account. Refused while positions are open (`positions_open`: close them
   * first) or other money is held.
   */
  async resetDemo(userId: number, resetId: string): Promise<EntryResult | null> {
    const accounts = await accountsOfOwner(this.db, 'demo', userId);
    if (accounts.some((a) => a.kind === MARGIN && a.balance > 0n))
      throw new LedgerError('positions_open', 'close open positions before resetting the demo book');
    const balances = await this.balances('demo', userId);
    if (balances.some((b) => b.held > 0n))
      throw new LedgerError('insufficient_funds', 'money is held in the demo book');
    const postings = [];
    for (const b of balances) {
      const target = b.asset === 'USDT' ? DEMO_FUNDING_MINOR : 0n;
      const change = target - b.balance;
      if (change === 0n) continue;
      postings.push({ accountId: await this.walletAccount('demo', userId, b.asset), amount: change });
      postings.push({
        accountId: await this.systemAccount('demo', b.asset, 'demo_issuance'),
        amount: -change,
      });
    }
    if (postings.length === 0) return null;
    return this.transfer({
      book: 'demo',
      kind: 'demo_reset',
      idempotencyKey: `demo-reset:${userId}:${resetId}`,
      actor: `user:${userId}`,
      reference: `user:${userId}`,
      postings,
    });
  }

  /** Recomputes every balance from postings and holds; returns the accounts that disagree. */
  reconcile() {
    return reconcileAccounts(this.db);
  }

  invariants() {
    return ledgerInvariants(this.db);
  }
}

function validateKey(key: string): void {
  if (key.length < 8 || key.length > 200)
    throw new LedgerError('invalid_request', 'an idempotency key has 8 to 200 characters');
}
