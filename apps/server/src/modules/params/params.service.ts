import { Code, type SystemParam } from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import {
  findParam,
  findPublicParam,
  insertMissingParams,
  paramsWithPrefix,
  writeParam,
} from './params.repository.ts';

/**
 * System parameters: values staff can change without a release (rates, limits; contact details
 * are the operator settings of modules/operator). Public ones are readable by customers through
 * getParamByKey; modules read any.
 */
export const DEFAULT_PARAMS = [
  {
    key: 'withdrawFeeRate',
    value: '0.01',
    isPublic: true,
    description: 'Withdrawal handling fee as a fraction of the amount',
  },
  {
    key: 'loanInterestFreeDays',
    value: '3',
    isPublic: true,
    description: 'Days after borrowing before interest accrues',
  },
  {
    key: 'fundEarlyRedeemPenaltyRate',
    value: '0.05',
    isPublic: true,
    description: 'Share of principal deducted on early fund exit',
  },
  { key: 'minDeposit.USDT', value: '120', isPublic: true, description: 'Minimum deposit in USDT' },
  { key: 'minDeposit.BTC', value: '0.015', isPublic: true, description: 'Minimum deposit in BTC' },
  { key: 'minDeposit.ETH', value: '0.2', isPublic: true, description: 'Minimum deposit in ETH' },
  {
    key: 'kycReviewHours',
    value: '48',
    isPublic: true,
    description: 'Hours within which a KYC review is answered',
  },
] as const;

export class ParamsService {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async seedDefaults(): Promise<void> {
    await insertMissingParams(this.db, DEFAULT_PARAMS);
  }

  /** A public parameter, or 10018 when there is no public parameter by that key. */
  async getPublic(key: string): Promise<SystemParam> {
    const param = await findPublicParam(this.db, key);
    if (!param) throw new ApiError(Code.SYSTEM_PARAMETER_FAILED);
    return param;
  }

  async get(key: string): Promise<string | null> {
    return findParam(this.db, key);
  }

  /** The parameters whose key starts with `prefix` (a module's settings), key → value. */
  withPrefix(prefix: string): Promise<Map<string, string>> {
    return paramsWithPrefix(this.db, prefix);
  }

  /**
   * Writes a setting a module changes directly (not under four eyes), in the caller's transaction,
   * so the change and its audit row exist together.
   */
  setInTx(tx: Queryable, key: string, value: string, description: string): Promise<void> {
    return writeParam(tx, key, value, description);
  }
}
