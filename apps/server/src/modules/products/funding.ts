import type { Asset, EntryKind } from '@swx/contract';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';
import type { Attachment } from '../ledger/ledger.types.ts';

/**
 * What staff fund a product's source account with (an earn reserve, a lending pool): the book,
 * the amount in the asset's minor units, and the request's key, actor and reason.
 */
export type Funding = {
  book: Book;
  asset: Asset;
  amount: bigint;
  /** The product's account the money goes to. */
  to: number;
  /** The entry's kind and reference (`earn:<id>`, `loan-pool:<asset>`). */
  kind: EntryKind;
  reference: string;
  actor: string;
  reason: string;
  requestKey: string;
  attach: Attachment<unknown>;
};

/**
 * Funds a product's source account from the house: one ledger transfer from the house's result
 * (the demo book: demo issuance, virtual money), idempotent on the request's key, its actor and
 * reason kept by the ledger's audit. Every product that pays out of its own account is funded so.
 */
export async function fundFromHouse(ledger: LedgerService, funding: Funding): Promise<void> {
  const from = await ledger.systemAccount(
    funding.book,
    funding.asset,
    funding.book === 'demo' ? 'demo_issuance' : 'house_pnl',
  );
  await ledger.transfer({
    book: funding.book,
    kind: funding.kind,
    idempotencyKey: funding.requestKey,
    actor: funding.actor,
    reason: funding.reason,
    reference: funding.reference,
    postings: [
      { accountId: from, amount: -funding.amount },
      { accountId: funding.to, amount: funding.amount },
    ],
    attach: funding.attach,
  });
}
