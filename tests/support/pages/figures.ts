import type { Locator } from 'playwright-core';

/** A figure (`data-figure="key"`) of a ticket, confirm or order detail. */
export const figure = (scope: Locator, key: string): Locator =>
  scope.locator(`[data-figure="${key}"]`).first();
/** Its exact value (`data-value`), as the server sent it. */
export const figureValue = (scope: Locator, key: string): Promise<string | null> =>
  figure(scope, key).getAttribute('data-value');
