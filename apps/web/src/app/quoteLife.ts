/**
 * A quote's life on the screen. Its life is the server's (`expiresAt − issuedAt`, both on the
 * service clock, which a sandbox may have moved days ahead), counted from when it arrived: the
 * browser's clock only measures the time since, never set against the server's.
 */
export type QuoteTimes = { issuedAt: number; expiresAt: number };

/** Milliseconds the quote has left, `arrivedAt` being when it arrived (ms, the browser's clock). */
export function quoteLeftMs(quote: QuoteTimes, arrivedAt: number, now = Date.now()): number {
  return arrivedAt + (quote.expiresAt - quote.issuedAt) * 1000 - now;
}

/**
 * Milliseconds until a query holding a quote should ask again: `marginMs` before it runs out, and
 * at least 1 s from now; 0 without a quote (ask now). For a query's `staleTime` and
 * `refetchInterval` with `query.state.dataUpdatedAt` as `arrivedAt`.
 */
export function untilRenewal(quote: QuoteTimes | undefined, arrivedAt: number, marginMs: number): number {
  if (quote === undefined) return 0;
  return Math.max(1_000, quoteLeftMs(quote, arrivedAt) - marginMs);
}
