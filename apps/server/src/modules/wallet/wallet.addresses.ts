import { ADDRESS_LOCK_HOURS, type Book, Code, type WithdrawalAddress } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { Client } from '../identity/identity.service.ts';
import { normalAddress, shownAddress } from './wallet.networks.ts';
import { provedOwnership } from './wallet.ownership.ts';
import { languageOf, nowIso, requireLive, type WithdrawalsContext } from './wallet.shared.ts';
import {
  type AddressRow,
  addressesOf,
  insertAddress,
  lockCustomerWithdrawals,
  removeAddress as removeAddressRow,
} from './wallet.withdrawals.repository.ts';

/*
 * The withdrawal address book: a new address, and every address after a password change or a
 * two-step removal, waits ADDRESS_LOCK_HOURS; an address proven by a signature is marked owned.
 */

/** Addresses a customer may keep in the book at once. */
const MAX_ADDRESSES = 20;
const HOUR_MS = 3_600_000;

/**
 * When an address can first be used: ADDRESS_LOCK_HOURS after it was added, or after the account's
 * last security change (password change or reset, two-step removal) when that came later. Opening
 * the account is no such change: an address's own addition starts its wait.
 */
export function usableFrom(address: AddressRow, securityChange: string | null): string {
  const added = Date.parse(address.createdAt);
  const changed = securityChange === null ? 0 : Date.parse(securityChange);
  return new Date(Math.max(added, changed) + ADDRESS_LOCK_HOURS * HOUR_MS).toISOString();
}

function addressWire(row: AddressRow, securityChange: string | null): WithdrawalAddress {
  return {
    id: row.id,
    network: row.network,
    address: shownAddress(row.address),
    label: row.label,
    usableFrom: usableFrom(row, securityChange),
    createdAt: row.createdAt,
    owned: row.ownershipSignature !== null,
  };
}

export async function addresses(
  ctx: WithdrawalsContext,
  book: Book,
  userId: number,
): Promise<WithdrawalAddress[]> {
  requireLive(book);
  const [rows, changed] = await Promise.all([
    addressesOf(ctx.db, userId),
    ctx.identity.securityChangedAt(userId),
  ]);
  return rows.map((row) => addressWire(row, changed));
}

export async function addAddress(
  ctx: WithdrawalsContext,
  book: Book,
  userId: number,
  body: { network: string; address: string; label: string; signature?: string | undefined },
  client?: Client,
): Promise<WithdrawalAddress> {
  requireLive(book);
  const network = await ctx.networks.get(body.network);
  const address = normalAddress(network, body.address);
  const ownershipSignature =
    body.signature === undefined ? null : await provedOwnership(network, address, userId, body.signature);
  const row = await ctx.db.transaction(async (tx) => {
    await lockCustomerWithdrawals(tx, userId);
    if ((await addressesOf(tx, userId)).length >= MAX_ADDRESSES)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'address', issue: 'too_many' }]);
    const added = await insertAddress(
      tx,
      {
        userId,
        network: network.id,
        address,
        label: body.label,
        ownershipSignature,
      },
      nowIso(ctx),
    );
    if (!added) throw new ApiError(Code.INVALID_INPUT, [{ path: 'address', issue: 'duplicate' }]);
    await ctx.audit.appendInTx(tx, [
      {
        actor: `customer:${userId}`,
        action: 'wallet.address.added',
        subject: `withdrawal_address:${added.id}`,
        data: { network: network.id, address, owned: ownershipSignature !== null },
      },
    ]);
    return added;
  });
  // The customer hears of it by mail and notice, with the lock link.
  const from = client ?? { ip: '', userAgent: '', language: await languageOf(ctx.customers, userId) };
  await ctx.identity.securityAlert(userId, 'addressAdded', from, {
    network: network.name,
    address: shownAddress(address),
  });
  return addressWire(row, await ctx.identity.securityChangedAt(userId));
}

export async function removeAddress(
  ctx: WithdrawalsContext,
  book: Book,
  userId: number,
  id: number,
): Promise<null> {
  requireLive(book);
  await ctx.db.transaction(async (tx) => {
    if (!(await removeAddressRow(tx, userId, id, nowIso(ctx)))) throw new ApiError(Code.NOT_FOUND);
    await ctx.audit.appendInTx(tx, [
      {
        actor: `customer:${userId}`,
        action: 'wallet.address.removed',
        subject: `withdrawal_address:${id}`,
        data: {},
      },
    ]);
  });
  return null;
}
