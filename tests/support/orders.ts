/**
 * The ticket of a small long on an instrument (0.05 lot at 2×) with both stops at 1.00: a preview
 * prices it as it is (previewOptions needs no session), and an order refuses such stops as
 * unreasonable, so a test sets them from the previewed price.
 */
export const smallLong = (marketId: number) => ({
  marketId,
  direction: 'long' as const,
  lots: '0.05',
  leverage: 2,
  stopLoss: '1.00',
  takeProfit: '1.00',
  autoCloseAfter: null,
});
