import { ASSET_SCALES, type Asset, Code, parseMinor } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';

/**
 * The checks of a product's terms as staff send them (the kit): an amount of the product's asset,
 * positive, at most the asset's decimals; a refusal is 10026 naming the field (`issue: 'amount'`).
 */
export function termAmount(asset: Asset, text: string, path: string): bigint {
  try {
    const value = parseMinor(text, ASSET_SCALES[asset]);
    if (value <= 0n) throw new Error('zero');
    return value;
  } catch {
    throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'amount' }]);
  }
}

/** A product's amount range: both amounts checked, the maximum not below the minimum. */
export function amountRange(
  asset: Asset,
  body: { minAmount: string; maxAmount: string },
): { minMinor: bigint; maxMinor: bigint } {
  const minMinor = termAmount(asset, body.minAmount, 'minAmount');
  const maxMinor = termAmount(asset, body.maxAmount, 'maxAmount');
  if (maxMinor < minMinor)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'maxAmount', issue: 'below_minimum' }]);
  return { minMinor, maxMinor };
}
