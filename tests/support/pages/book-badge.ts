import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

export const DEMO_NAME = 'Demo account: Virtual money';
export const LIVE_NAME = 'Live account: Real money';

/** The book badge inside `scope` (one, exactly): which book it names, its accessible name and text. */
export async function badgeOf(
  scope: Locator,
): Promise<{ book: string | null; name: string | null; text: string }> {
  const badge = scope.getByTestId('book-badge');
  await badge.waitFor({ timeout: 60_000 });
  expect(await badge.count()).toBe(1);
  return {
    book: await badge.getAttribute('data-book'),
    name: await badge.getAttribute('aria-label'),
    text: await badge.innerText(),
  };
}
