import { ASSET_SCALES, type Asset, HELD_REASONS, type HeldReason } from '@swx/contract';
import type { AccountRow, PendingHolds } from './ledger.repository.ts';

/*
 * A customer's balance per asset, read from their accounts: what is available, what is held and,
 * from the ledger's own holds and sub-accounts, what holds it.
 */

/** The customer's own account in each book and asset. */
export const WALLET = 'wallet';
/** A customer's margin account: the margin of their open positions, per book and asset. */
export const MARGIN = 'margin';
/** A customer's earn account: the principal of their fund and VIP investments, per book and asset. */
export const EARN = 'earn';
/** A customer's smart account: what their smart plans hold (amount and realised results, less open margin), per book and asset. */
export const SMART = 'smart';

/**
 * The sub-accounts whose whole balance is the customer's money but not available to spend (shown
 * as held), and what holds it.
 */
const HELD_ACCOUNTS: readonly (readonly [kind: string, reason: HeldReason])[] = [
  [MARGIN, 'margin'],
  [EARN, 'earn'],
  [SMART, 'smart'],
];

/**
 * What a pending hold on a wallet is for, by the first part of its reference as the module that
 * places it writes it: a chain deposit's lock until its unlock depth, `deposit:<id>`
 * (wallet.credit.ts); a withdrawal from its request until it is sent, `withdrawal-request:<id>`
 * (wallet.withdraw.ts). A hold of any other reference is `other`.
 */
const HOLD_REASONS = new Map<string, HeldReason>([
  ['deposit', 'deposit'],
  ['withdrawal-request', 'withdrawal'],
]);

export type Balance = { asset: Asset; scale: number; balance: bigint; held: bigint; available: bigint };
export type HeldPart = { reason: HeldReason; amount: bigint };
/** A balance with its held figure by what holds it: parts above zero, in `HELD_REASONS` order, adding up to `held`. */
export type HeldBalance = Balance & { heldBy: HeldPart[] };

const accountOf = (accounts: readonly AccountRow[], asset: Asset, kind: string) =>
  accounts.find((a) => a.asset === asset && a.kind === kind);

/** One asset's balance: the wallet and the held sub-accounts together; held = the wallet's holds + the sub-accounts. */
export function balanceOf(accounts: readonly AccountRow[], asset: Asset): Balance {
  const wallet = accountOf(accounts, asset, WALLET);
  let sub = 0n;
  for (const [kind] of HELD_ACCOUNTS) sub += accountOf(accounts, asset, kind)?.balance ?? 0n;
  const balance = (wallet?.balance ?? 0n) + sub;
  const held = (wallet?.held ?? 0n) + sub;
  return { asset, scale: ASSET_SCALES[asset], balance, held, available: balance - held };
}

/**
 * One asset's balance with what holds it: the wallet's pending holds by their reference, each
 * held sub-account by its kind. `holds` and `accounts` come from one snapshot
 * (`accountsOfOwnerWithHolds`), where a wallet's held figure is the sum of its pending holds.
 */
export function heldBalanceOf(
  accounts: readonly AccountRow[],
  holds: readonly PendingHolds[],
  asset: Asset,
): HeldBalance {
  const parts = new Map<HeldReason, bigint>();
  const add = (reason: HeldReason, amount: bigint) => parts.set(reason, (parts.get(reason) ?? 0n) + amount);
  const wallet = accountOf(accounts, asset, WALLET);
  for (const hold of holds)
    if (hold.accountId === wallet?.id) add(HOLD_REASONS.get(hold.prefix ?? '') ?? 'other', hold.amount);
  for (const [kind, reason] of HELD_ACCOUNTS) add(reason, accountOf(accounts, asset, kind)?.balance ?? 0n);
  const heldBy = HELD_REASONS.flatMap((reason) => {
    const amount = parts.get(reason) ?? 0n;
    return amount === 0n ? [] : [{ reason, amount }];
  });
  return { ...balanceOf(accounts, asset), heldBy };
}
