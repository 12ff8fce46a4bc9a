import {
  Code,
  formatMinor,
  MoneyFormatError,
  parseMinor,
  type SwapAsset,
  type SwapPair,
  type SwapPairAdmin,
  type swapPairUpdateBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import { ApiError } from '../../platform/http.ts';
import { ppmOf, ppmText } from '../products/figures.ts';
import { midRate, type SidePrices } from './swap.figures.ts';
import { listPairs, pairOfAssets, updatePair as updatePairRow } from './swap.repository.ts';
import { priceOf, type SwapContext, scaleOf, second, wirePairAdmin } from './swap.shared.ts';

/* The pairs: what customers see (with the rate now) and what staff set. */

/** Every pair with its limits, fee rate, the mid-market rate now and whether it can be quoted now. */
export async function pairs(ctx: SwapContext): Promise<SwapPair[]> {
  const t = second(ctx);
  const prices = new Map<SwapAsset, SidePrices | null>();
  const price = (asset: SwapAsset) => {
    if (!prices.has(asset)) prices.set(asset, priceOf(ctx, asset, t));
    return prices.get(asset) ?? null;
  };
  return (await listPairs(ctx.db)).map((p) => {
    const from = price(p.from);
    const to = price(p.to);
    const rate = from && to ? midRate(from, to) : null;
    return {
      from: p.from,
      to: p.to,
      min: formatMinor(p.minMinor, scaleOf(p.from)),
      max: formatMinor(p.maxMinor, scaleOf(p.from)),
      feeRate: ppmText(p.feePpm),
      rate,
      available: p.enabled && rate !== null,
    };
  });
}

/** Every pair as staff see it. */
export async function adminPairs(ctx: SwapContext): Promise<SwapPairAdmin[]> {
  return (await listPairs(ctx.db)).map(wirePairAdmin);
}

/**
 * Staff change a pair's limits, fee rate or switch; new quotes use them at once (a quote already
 * given keeps its figures for its few seconds). Audited in the change's transaction.
 */
export async function updatePair(
  ctx: SwapContext,
  staffId: number,
  body: z.infer<typeof swapPairUpdateBody>,
): Promise<SwapPairAdmin> {
  if (body.from === body.to) throw new ApiError(Code.INVALID_INPUT, [{ path: 'to', issue: 'same_asset' }]);
  const scale = scaleOf(body.from);
  const amount = (path: 'min' | 'max', text: string) => {
    try {
      return parseMinor(text, scale);
    } catch (error) {
      if (error instanceof MoneyFormatError)
        throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'too_many_decimals' }]);
      throw error;
    }
  };
  const minMinor = amount('min', body.min);
  const maxMinor = amount('max', body.max);
  if (minMinor <= 0n) throw new ApiError(Code.INVALID_INPUT, [{ path: 'min', issue: 'too_small' }]);
  if (maxMinor < minMinor) throw new ApiError(Code.INVALID_INPUT, [{ path: 'max', issue: 'below_min' }]);
  const feePpm = ppmOf(body.feeRate);
  // A fee of 100 % or more would leave nothing to receive.
  if (feePpm >= 1_000_000n) throw new ApiError(Code.INVALID_INPUT, [{ path: 'feeRate', issue: 'too_big' }]);
  await ctx.db.transaction(async (tx) => {
    const before = await updatePairRow(
      tx,
      {
        from: body.from,
        to: body.to,
        minMinor,
        maxMinor,
        feePpm,
        enabled: body.enabled,
        staffId,
      },
      new Date(ctx.now()).toISOString(),
    );
    if (!before) throw new ApiError(Code.NOT_FOUND);
    const { updatedAt: _at, updatedBy: _by, ...was } = wirePairAdmin(before);
    await ctx.audit.appendInTx(tx, [
      {
        actor: `staff:${staffId}`,
        action: 'swap.pair.updated',
        subject: `swap:${body.from}-${body.to}`,
        data: { before: was, after: body },
      },
    ]);
  });
  const after = await pairOfAssets(ctx.db, body.from, body.to);
  if (!after) throw new Error(`swap pair ${body.from}-${body.to} missing`);
  return wirePairAdmin(after);
}
