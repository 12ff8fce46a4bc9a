import { bech32 } from '@scure/base';
import {
  ASSET_SCALES,
  Code,
  formatMinor,
  MoneyFormatError,
  type Network,
  type networkUpdateBody,
  parseMinor,
  withdrawalFee,
} from '@swx/contract';
import { checksumAddress, EVM_ADDRESS_PATTERN, shownEvmAddress } from '@swx/contract/evmAddress';
import type { z } from 'zod/mini';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { listNetworks, type NetworkRow, setBlockSeconds, updateNetwork } from './wallet.repository.ts';

/*
 * Networks are data (table wallet_networks, the back office's networks screen): per asset and chain
 * the deposit minimum, the confirmations to credit and to unlock, the block time the waiting times
 * are computed from, the withdrawal fee rate and limits, the arrival time, the address format and
 * the switch. Every figure a customer is told about timing and fees comes from here.
 */

/** The withdrawal fee of an amount: amount × rate, rounded up (the contract's rule, which the screens preview). */
export { withdrawalFee };

/** "0.005000" → "0.005"; "0.000000" → "0". */
export function normalRate(rate: string): string {
  return rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;
}

export const scaleOf = (row: Pick<NetworkRow, 'asset'>) => ASSET_SCALES[row.asset];

/** An amount the customer typed, in minor units of the network's asset (more decimals than the asset has: 10026). */
export function amountOf(row: Pick<NetworkRow, 'asset'>, text: string, path = 'amount'): bigint {
  try {
    const minor = parseMinor(text, scaleOf(row));
    if (minor <= 0n) throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'positive' }]);
    return minor;
  } catch (error) {
    if (error instanceof MoneyFormatError)
      throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'decimals' }]);
    throw error;
  }
}

export const decimal = (row: Pick<NetworkRow, 'asset'>, minor: bigint) => formatMinor(minor, scaleOf(row));

/**
 * A network as the wire states it; `canSend`: the platform holds a signer of the hot wallet on the
 * chain it follows, so a watched network can be withdrawn from (BTC, not followed here, never).
 */
export function networkWire(row: NetworkRow, canSend: boolean): Network {
  return {
    id: row.id,
    asset: row.asset,
    name: row.name,
    addressFormat: row.addressFormat,
    watched: row.watched,
    depositMinimum: decimal(row, row.depositMinimum),
    creditConfirmations: row.creditConfirmations,
    unlockConfirmations: row.unlockConfirmations,
    blockSeconds: row.blockSeconds,
    withdrawalFeeRate: normalRate(row.withdrawalFeeRate),
    withdrawalMinimum: decimal(row, row.withdrawalMinimum),
    withdrawalMaximum: decimal(row, row.withdrawalMaximum),
    arrivalMinutes: row.arrivalMinutes,
    enabled: row.enabled,
    withdrawable: row.watched && canSend,
  };
}

/**
 * An address as the customer and staff read it (the wire, notices, mails): an EVM address in its
 * EIP-55 checksummed form; a Bitcoin address as kept. Kept lowercase, compared lowercase.
 */
export const shownAddress = shownEvmAddress;

/**
 * An address as the network writes it, or 10026 on `path`: EVM addresses are 0x and 40 hex digits
 * (mixed case must be a valid EIP-55 checksum) and are kept lowercase; Bitcoin addresses are
 * mainnet SegWit (bech32 `bc1q…`, witness version 0) and kept lowercase.
 */
export function normalAddress(
  row: Pick<NetworkRow, 'addressFormat'>,
  text: string,
  path = 'address',
): string {
  const address = text.trim();
  const refuse = () => new ApiError(Code.INVALID_INPUT, [{ path, issue: 'address' }]);
  if (row.addressFormat === 'evm') {
    if (!EVM_ADDRESS_PATTERN.test(address)) throw refuse();
    const mixed = address !== address.toLowerCase() && address.slice(2) !== address.slice(2).toUpperCase();
    if (mixed && checksumAddress(address) !== address) throw refuse();
    if (/^0x0{40}$/.test(address)) throw refuse();
    return address.toLowerCase();
  }
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) throw refuse();
  try {
    const decoded = bech32.decode(lower as `${string}1${string}`);
    const version = decoded.words[0];
    const program = bech32.fromWords(decoded.words.slice(1));
    if (decoded.prefix !== 'bc' || version !== 0 || (program.length !== 20 && program.length !== 32))
      throw refuse();
  } catch {
    throw refuse();
  }
  return lower;
}

export class Networks {
  private readonly db: Database;
  private readonly audit: AuditService;
  /** The platform can sign and send on the chain it follows (a signer of the hot wallet). */
  readonly canSend: boolean;
  /** The service's clock: the time a change is dated. */
  private readonly now: () => number;

  constructor(db: Database, audit: AuditService, canSend: boolean, now: () => number = Date.now) {
    this.db = db;
    this.audit = audit;
    this.canSend = canSend;
    this.now = now;
  }

  /** A network as the wire states it, withdrawable or not on this platform. */
  wire(row: NetworkRow): Network {
    return networkWire(row, this.canSend);
  }

  all(): Promise<NetworkRow[]> {
    return listNetworks(this.db);
  }

  async enabled(): Promise<NetworkRow[]> {
    return (await this.all()).filter((n) => n.enabled);
  }

  /** What customers are offered: the enabled networks as the wire states them. */
  async offered(): Promise<Network[]> {
    return (await this.enabled()).map((row) => this.wire(row));
  }

  /** An enabled network; a missing one is spec 10025 ("select a withdrawal method"). */
  async get(id: string | undefined): Promise<NetworkRow> {
    const row = id === undefined ? undefined : (await this.all()).find((n) => n.id === id && n.enabled);
    if (!row) throw new ApiError(Code.SELECT_WITHDRAWAL_METHOD);
    return row;
  }

  /** Staff change a network (audited with the fields before and after). */
  async update(actor: string, body: z.infer<typeof networkUpdateBody>): Promise<NetworkRow> {
    const before = (await this.all()).find((n) => n.id === body.id);
    if (!before) throw new ApiError(Code.NOT_FOUND);
    const next = {
      id: body.id,
      name: body.name,
      depositMinimum: amountOf(before, body.depositMinimum, 'depositMinimum'),
      creditConfirmations: body.creditConfirmations,
      unlockConfirmations: body.unlockConfirmations,
      blockSeconds: body.blockSeconds,
      withdrawalFeeRate: body.withdrawalFeeRate,
      withdrawalMinimum: amountOf(before, body.withdrawalMinimum, 'withdrawalMinimum'),
      withdrawalMaximum: amountOf(before, body.withdrawalMaximum, 'withdrawalMaximum'),
      arrivalMinutes: body.arrivalMinutes,
      enabled: body.enabled,
    };
    if (next.unlockConfirmations < next.creditConfirmations)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'unlockConfirmations', issue: 'min' }]);
    if (next.withdrawalMaximum < next.withdrawalMinimum)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'withdrawalMaximum', issue: 'min' }]);
    return this.db.transaction(async (tx) => {
      const after = await updateNetwork(tx, next, new Date(this.now()).toISOString());
      if (!after) throw new ApiError(Code.NOT_FOUND);
      await this.audit.appendInTx(tx, [
        {
          actor,
          action: 'wallet.network.updated',
          subject: `network:${body.id}`,
          data: { before: this.wire(before), after: this.wire(after) },
        },
      ]);
      return after;
    });
  }

  /** The watched networks of a development chain take its block time, so the stated times are true. */
  async followBlockTime(seconds: number): Promise<void> {
    const changed = await setBlockSeconds(this.db, 'evm', seconds, new Date(this.now()).toISOString());
    if (changed.length > 0)
      await this.audit.append([
        {
          actor: 'system',
          action: 'wallet.network.block_time',
          subject: 'chain:evm',
          data: { seconds, changed },
        },
      ]);
  }
}
