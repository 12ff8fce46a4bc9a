import {
  ASSET_SCALES,
  type Book,
  Code,
  type Language,
  NETWORK_ASSETS,
  type NetworkAsset,
  parseMinor,
  type Withdrawal,
  type WithdrawalQuote,
  type withdrawalBody,
  type withdrawalQuoteBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import { ApiError } from '../../platform/http.ts';
import { usableFrom } from './wallet.addresses.ts';
import { amountOf, decimal, normalRate, shownAddress, withdrawalFee } from './wallet.networks.ts';
import type { NetworkRow } from './wallet.repository.ts';
import {
  LIVE,
  limitRefusal,
  requireLive,
  startOfUtcDay,
  type WITHDRAWAL,
  type WithdrawalsContext,
} from './wallet.shared.ts';
import {
  type AddressRow,
  addressById,
  type WithdrawalRow,
  withdrawalByRequest,
  withdrawalsOf,
  withdrawnSince,
} from './wallet.withdrawals.repository.ts';

/*
 * A withdrawal as the customer asks for it: daily limits per asset (higher with a verified
 * identity), the quote (amount, fee at the network's rate rounded up, amount received; exactly
 * what is posted), the confirmation code, the commit (one hold), and their withdrawals.
 */

async function limitOf(
  ctx: WithdrawalsContext,
  userId: number,
  asset: NetworkAsset,
): Promise<{ limit: bigint; verified: boolean }> {
  const verified = (await ctx.kyc.stateOf(userId)) === 'verified';
  const value = await ctx.params.get(`withdrawalDailyLimit${verified ? 'Verified' : ''}.${asset}`);
  return { limit: value === null ? 0n : parseMinor(value, ASSET_SCALES[asset]), verified };
}

export async function limits(ctx: WithdrawalsContext, book: Book, userId: number) {
  requireLive(book);
  const since = startOfUtcDay(ctx.now());
  return Promise.all(
    NETWORK_ASSETS.map(async (asset) => {
      const { limit, verified } = await limitOf(ctx, userId, asset);
      const used = await withdrawnSince(ctx.db, userId, asset, since);
      return { asset, limit: decimal({ asset }, limit), used: decimal({ asset }, used), verified };
    }),
  );
}

/** The network and address of a withdrawal: a network the platform sends on (10025), an address of the book (10021), unlocked (10041). */
async function target(
  ctx: WithdrawalsContext,
  userId: number,
  networkId: string | undefined,
  addressId: number | undefined,
): Promise<{ network: NetworkRow; address: AddressRow }> {
  const network = await ctx.networks.get(networkId);
  // The one rule the networks list states (`withdrawable`): followed on chain, and a signer to send.
  if (!ctx.networks.wire(network).withdrawable) throw new ApiError(Code.SELECT_WITHDRAWAL_METHOD);
  if (addressId === undefined) throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
  const address = await addressById(ctx.db, addressId);
  if (!address || address.userId !== userId || address.removedAt !== null || address.network !== network.id)
    throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
  const from = usableFrom(address, await ctx.identity.securityChangedAt(userId));
  if (Date.parse(from) > ctx.now()) throw new ApiError(Code.ADDRESS_LOCKED, { usableFrom: from });
  return { network, address };
}

/** The amount and fee of a withdrawal, within the network's range, the balance and the day's limit. */
async function checkedFigures(
  ctx: WithdrawalsContext,
  userId: number,
  network: NetworkRow,
  text: string,
): Promise<{ amount: bigint; fee: bigint }> {
  const amount = amountOf(network, text);
  if (amount < network.withdrawalMinimum)
    throw new ApiError(Code.BELOW_MINIMUM, {
      asset: network.asset,
      minimum: decimal(network, network.withdrawalMinimum),
    });
  if (amount > network.withdrawalMaximum)
    throw new ApiError(Code.ABOVE_MAXIMUM, {
      asset: network.asset,
      maximum: decimal(network, network.withdrawalMaximum),
    });
  const fee = withdrawalFee(amount, network.withdrawalFeeRate);
  if (fee >= amount)
    throw new ApiError(Code.BELOW_MINIMUM, {
      asset: network.asset,
      minimum: decimal(network, network.withdrawalMinimum),
    });
  const balance = (await ctx.ledger.balances(LIVE, userId)).find((b) => b.asset === network.asset);
  if (!balance || balance.available < amount) throw new ApiError(Code.INSUFFICIENT_BALANCE);
  const { limit } = await limitOf(ctx, userId, network.asset);
  const used = await withdrawnSince(ctx.db, userId, network.asset, startOfUtcDay(ctx.now()));
  if (used + amount > limit) throw limitRefusal({ asset: network.asset, limit: limit.toString() }, used);
  return { amount, fee };
}

/** The exact figures of a withdrawal (valid 60 s): what leaves the balance, the fee, what arrives. */
export async function quote(
  ctx: WithdrawalsContext,
  book: Book,
  userId: number,
  body: z.infer<typeof withdrawalQuoteBody>,
): Promise<WithdrawalQuote> {
  requireLive(book);
  const { network, address } = await target(ctx, userId, body.network, body.addressId);
  const { amount, fee } = await checkedFigures(ctx, userId, network, body.amount);
  const figures = {
    network: network.id,
    addressId: address.id,
    address: address.address,
    amount,
    fee,
    receive: amount - fee,
  };
  const ref = ctx.quotes.issue({ customerId: userId, book: LIVE }, Math.floor(ctx.now() / 1000), figures);
  return {
    ...ref,
    network: network.id,
    asset: network.asset,
    address: shownAddress(address.address),
    addressId: address.id,
    amount: decimal(network, amount),
    fee: decimal(network, fee),
    feeRate: normalRate(network.withdrawalFeeRate),
    receive: decimal(network, amount - fee),
    arrivalMinutes: network.arrivalMinutes,
    confirmation: await ctx.identity.confirmationMethod(userId),
  };
}

/** What a withdrawal code names and confirms: the quote's amount, asset, network and destination. */
async function factsOf(
  ctx: WithdrawalsContext,
  figures: { network: string; address: string; amount: bigint },
) {
  const network = await ctx.networks.get(figures.network);
  return {
    amount: decimal(network, figures.amount),
    asset: network.asset,
    network: network.name,
    address: shownAddress(figures.address),
  };
}

/**
 * The code that confirms a withdrawal is only issued for a pending quote of this customer (not
 * another's: 10028; not expired: 10032), and its mail names that quote's figures.
 */
export async function sendCode(
  ctx: WithdrawalsContext,
  book: Book,
  userId: number,
  language: Language,
  quoteId: string,
) {
  requireLive(book);
  const issued = ctx.quotes.verify(quoteId, { customerId: userId, book: LIVE });
  const now = Math.floor(ctx.now() / 1000);
  if (now > issued.expiresAt) throw new ApiError(Code.PRICE_CHANGED, { expiresAt: issued.expiresAt, now });
  return ctx.identity.sendActionCode(userId, language, await factsOf(ctx, issued.figures));
}

/**
 * Commits a quoted withdrawal: the confirmation code first (10091), the address checked again
 * (it may have been removed, or locked by a security change since the quote), then ONE ledger
 * hold of the quoted amount whose attachment records the withdrawal, checking the daily limit
 * under the customer's lock. The same request id answers the first withdrawal.
 */
export async function commit(
  ctx: WithdrawalsContext,
  book: Book,
  userId: number,
  body: z.infer<typeof withdrawalBody>,
): Promise<Withdrawal> {
  requireLive(book);
  const replay = async () => {
    const done = await withdrawalByRequest(ctx.db, userId, body.requestId);
    return done ? withdrawalWire(done) : null;
  };
  return ctx.quotes.commit(
    body.quoteId,
    { customerId: userId, book: LIVE },
    {
      requestKey: `${userId}:${body.requestId}`,
      replay,
      post: async ({ figures }) => (await replay()) ?? hold(ctx, userId, body, figures),
    },
  );
}

type QuotedFigures = z.output<typeof WITHDRAWAL.figures>;

/** The confirmed withdrawal's one hold; its attachment writes the row. */
async function hold(
  ctx: WithdrawalsContext,
  userId: number,
  body: z.infer<typeof withdrawalBody>,
  figures: QuotedFigures,
): Promise<Withdrawal> {
  await ctx.identity.confirmAction(userId, body.code, await factsOf(ctx, figures));
  const { network, address } = await target(ctx, userId, figures.network, figures.addressId);
  if (address.address !== figures.address) throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
  const { limit } = await limitOf(ctx, userId, network.asset);
  const held = await ctx.ledger.hold({
    book: LIVE,
    accountId: await ctx.ledger.walletAccount(LIVE, userId, network.asset),
    amount: figures.amount,
    idempotencyKey: `withdrawal:${userId}:${body.requestId}`,
    actor: `customer:${userId}`,
    reference: `withdrawal-request:${body.requestId}`,
    attach: ctx.attachments.requested.with({
      userId,
      requestId: body.requestId,
      network: network.id,
      asset: network.asset,
      addressId: address.id,
      address: address.address,
      amount: figures.amount.toString(),
      fee: figures.fee.toString(),
      receive: figures.receive.toString(),
      limit: limit.toString(),
      since: startOfUtcDay(ctx.now()),
    }),
  });
  const row = await withdrawalByRequest(ctx.db, userId, body.requestId);
  if (!row || row.holdId !== held.holdId) throw new ApiError(Code.NOT_FOUND);
  return withdrawalWire(row);
}

export async function list(ctx: WithdrawalsContext, book: Book, userId: number): Promise<Withdrawal[]> {
  requireLive(book);
  const rows = await withdrawalsOf(ctx.db, userId, 200);
  const head = rows.some((r) => r.state === 'sent') && ctx.chain ? await ctx.chain.head() : null;
  return rows.map((row) => withdrawalWire(row, head));
}

export function withdrawalWire(row: WithdrawalRow, head: bigint | null = null): Withdrawal {
  return {
    id: row.id,
    network: row.network,
    asset: row.asset,
    address: shownAddress(row.address),
    amount: decimal(row, row.amount),
    fee: decimal(row, row.fee),
    receive: decimal(row, row.receive),
    state: row.state,
    txHash: row.txHash,
    confirmations:
      row.state === 'sent' && head !== null && row.sentBlock !== null && head >= row.sentBlock
        ? Number(head - row.sentBlock)
        : 0,
    reason: row.reason,
    createdAt: row.createdAt,
    completedAt: row.completedAt,
  };
}
