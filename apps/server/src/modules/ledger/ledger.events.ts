import { MARGIN } from './ledger.balances.ts';
import { customerLines } from './ledger.bulk.ts';
import type { EntryPosting, OwnerEntry } from './ledger.entries.repository.ts';
import type { EntryDetail, LedgerEvent } from './ledger.service.ts';

/**
 * One entry as one customer's record shows it (`LedgerService.eventsOf`): what it changed for
 * them, its margin, fee and result, and its postings (others' as `counterparty`). Of a compound
 * entry (a bulk run's page) only the customer's own line and the source's debit of it, with the
 * line's reference: as the one-entry payment it stands for.
 */
export function eventOf(
  entry: OwnerEntry,
  postings: readonly EntryPosting[],
  ownerId: number,
  detail: EntryDetail | null,
): LedgerEvent {
  const view = customerLines(postings, ownerId);
  const mine = view.postings;
  const own = mine.filter((p) => p.ownerId === ownerId);
  const changes: { asset: string; amount: bigint }[] = [];
  for (const p of own) {
    const change = changes.find((c) => c.asset === p.asset);
    if (change) change.amount += p.amount;
    else changes.push({ asset: p.asset, amount: p.amount });
  }
  // A swap changes two assets and pays its fee in the one received: the fee's asset is the line's.
  const feeAsset = mine.find(
    (p) => p.ownerId === null && p.accountKind === 'fees' && changes.some((c) => c.asset === p.asset),
  )?.asset;
  const asset = feeAsset ?? changes[0]?.asset ?? mine[0]?.asset ?? 'USDT';
  const sum = (list: typeof mine) =>
    list.length === 0 ? null : list.reduce((total, p) => total + p.amount, 0n);
  const margin = sum(own.filter((p) => p.asset === asset && p.accountKind === MARGIN));
  const fee = sum(mine.filter((p) => p.asset === asset && p.ownerId === null && p.accountKind === 'fees'));
  const result =
    margin !== null && margin < 0n ? (changes.find((c) => c.asset === asset)?.amount ?? 0n) : null;
  return {
    entryId: entry.entryId,
    kind: entry.kind,
    createdAt: entry.createdAt,
    reversedBy: entry.reversedBy,
    reversesEntryId: entry.reversesEntryId,
    reference: view.reference ?? entry.reference,
    detail,
    asset,
    changes,
    margin,
    fee,
    result,
    postings: mine.map((p) => ({
      account: p.ownerId === ownerId || p.ownerId === null ? p.accountKind : 'counterparty',
      own: p.ownerId === ownerId,
      asset: p.asset,
      amount: p.amount,
    })),
  };
}
