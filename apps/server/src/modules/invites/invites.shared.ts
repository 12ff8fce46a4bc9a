import { createHash, randomInt } from 'node:crypto';
import { type Asset, type EntryKind, INVITE_CODE_ALPHABET, type REWARD_REASONS } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LedgerFacts } from '../ledger/ledger.facts.ts';
import type { EntryAttachment, LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import type { CustomerAddresses, KnownAddresses } from '../products/ports.ts';

/*
 * What the invite programme's parts share: the services it reads, the entry kinds it counts, the
 * masks of names, the codes and the identity fingerprint.
 */

/** The entries whose fees count: a position opened or closed, a swap (the live book only). */
export const FEE_KINDS: readonly EntryKind[] = ['trade_margin', 'trade_pnl', 'swap'];
/** A first live trade: a position opened or a swap made (the customer debited). */
export const TRADE_KINDS: readonly EntryKind[] = ['trade_margin', 'swap'];
/** A live deposit credited (the customer credited), not reversed. */
export const DEPOSIT_KINDS: readonly EntryKind[] = ['deposit'];

export type RewardReason = (typeof REWARD_REASONS)[number];

/** What a payout's `referral` entry writes beside it: the rewards it pays and its notice. */
export type PayoutRecord = {
  inviterId: number;
  day: string;
  rewardIds: number[];
  /** `<decimal> <ASSET>` items joined by `; ` (the inviter's part), for the notice. */
  amounts: string;
};

export type InvitesContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly facts: LedgerFacts;
  readonly kyc: Pick<KycService, 'statesOf' | 'status'>;
  readonly params: Pick<ParamsService, 'withPrefix' | 'setInTx'>;
  readonly audit: AuditService;
  readonly notices: Pick<NoticesService, 'notifyInTx'>;
  readonly customers: Pick<CustomerDirectory, 'namesOf' | 'search'>;
  /** Per customer: withdrawal addresses, deposit senders, deposit addresses (the wallet's port). */
  readonly addresses: CustomerAddresses;
  /** The USDT price of one unit of an asset (a decimal string), or null when there is none now. */
  readonly usdtPrice: (asset: Asset) => string | null;
  readonly now: () => number;
  readonly logger: Logger | undefined;
  /** The `referral` entry's attachment: marks its rewards paid and records the payout, in its transaction. */
  readonly payouts: EntryAttachment<PayoutRecord, number>;
};

/** A new invite code: 8 characters of the alphabet, at random. */
export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)];
  return code;
}

/**
 * A customer's login name as others see it: an email's first two characters and its domain
 * (`le***@example.com`), a phone's country code and last four digits (`+44****1234`), a username's
 * first two characters (`ab***`).
 */
export function maskName(name: string): string {
  const at = name.lastIndexOf('@');
  if (at > 0) return `${name.slice(0, Math.min(2, at))}***${name.slice(at)}`;
  if (/^\+\d{7,15}$/.test(name)) return `${name.slice(0, 3)}****${name.slice(-4)}`;
  return `${name.slice(0, 2)}***`;
}

/**
 * A verified identity's fingerprint: a hash of the names, birth date and country as the customer
 * verified them (the KYC records no document number), normalised; compared, never stored or shown.
 */
export function identityFingerprint(d: {
  firstName: string;
  lastName: string;
  birthdate: string;
  country: string;
}): string {
  const norm = (text: string) => text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
  return createHash('sha256')
    .update(JSON.stringify([norm(d.lastName), norm(d.firstName), d.birthdate, d.country]))
    .digest('hex');
}

/**
 * Do their addresses tie two customers together: a withdrawal address both named, or a deposit of
 * one sent from an address of the other (a withdrawal address, a deposit's sender or their own
 * deposit address)?
 */
export function shareAnAddress(a: KnownAddresses | undefined, b: KnownAddresses | undefined): boolean {
  if (!a || !b) return false;
  const all = (k: KnownAddresses) => new Set([...k.withdrawal, ...k.depositSources, ...k.deposit]);
  const [ofA, ofB] = [all(a), all(b)];
  return (
    a.withdrawal.some((x) => b.withdrawal.includes(x)) ||
    a.depositSources.some((x) => ofB.has(x)) ||
    b.depositSources.some((x) => ofA.has(x))
  );
}

export const nowIso = (ctx: Pick<InvitesContext, 'now'>) => new Date(ctx.now()).toISOString();
