/**
 * The invite page's arithmetic and addresses: pure, so the page and its tests share them. Basis
 * points stay integers; a ratio is written as a decimal string (Intl reads it without a float).
 */

/** The invite link: this site's origin and the path the server gives (`/register?invite=CODE`). */
export function inviteLink(origin: string, linkPath: string): string {
  return new URL(linkPath, origin).href;
}

/** Basis points as a ratio in a decimal string: 2000 → "0.2", 5 → "0.0005" (for `formatPercent`). */
export function bpsRatio(bps: number): string {
  const digits = String(Math.trunc(Math.abs(bps))).padStart(5, '0');
  const whole = digits.slice(0, -4).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-4).replace(/0+$/, '');
  return `${bps < 0 ? '-' : ''}${fraction ? `${whole}.${fraction}` : whole}`;
}

/**
 * What the inviter keeps and what the friend gets back, in basis points of the fee: the rebate is
 * taken out of the share (20 % and 5 % → 15 % and 5 %), never more than the share.
 */
export function splitShare(shareBps: number, rebateBps: number): { inviterBps: number; friendBps: number } {
  const friendBps = Math.max(0, Math.min(rebateBps, shareBps));
  return { inviterBps: Math.max(0, shareBps - friendBps), friendBps };
}

/** The keyset of the next page (the last id shown) while pages come back full; none after a short one. */
export function nextBefore(page: readonly { id: number }[], pageSize: number): number | undefined {
  return page.length >= pageSize ? page[page.length - 1]?.id : undefined;
}
