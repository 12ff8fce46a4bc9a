import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { PageModel } from './page-model.ts';

/** The confirm dialog's figures as one consistent reading: the quote, and each row's value and mark. */
export type Reading = {
  quoteTime: string;
  rows: Record<string, { value: string; shown: string; changed: boolean; text: string; was: string }>;
  /** The renewal's state (refreshing, changed, same, failed), or null before any renewal. */
  state: string | null;
};

/** A reading that was confirmed, with the figures an order detail is compared with. */
export type Confirmed = Reading & { price: string; margin: string; fee: string; marginText: string };

/**
 * The confirm step of an order (`order-confirm`): the figures of one quote, renewed in place before
 * the quote runs out (changes marked), and the confirm that opens the position at what is shown.
 */
export class ConfirmDialog extends PageModel {
  readonly root = this.page.getByTestId('order-confirm');
  readonly buttons = this.root.locator('.confirm-actions button');
  /** The scroller between the fixed title and the buttons. */
  readonly scroller = this.root.locator('.confirm-dialog-scroll');
  readonly requote = this.root.getByTestId('requote');

  /** Reads the figures and, with `thenConfirm`, clicks confirm in the same task of the page. */
  private readAnd(thenConfirm: boolean): Promise<Reading | null> {
    // Read and click in one task of the page, so no renewal can land between what is read and sent.
    // The dialog is looked up inside that task and null answered when it is gone: a locator's
    // evaluate would wait for it, and an order that opens (the dialog closes, the page moves on)
    // between two polls would leave the poll waiting for a dialog that never comes back.
    return this.page.evaluate((confirm) => {
      const element = document.querySelector<HTMLElement>('[data-testid="order-confirm"]');
      if (!element) return null;
      const rows: Reading['rows'] = {};
      for (const row of element.querySelectorAll<HTMLElement>('.confirm-figures [data-figure]')) {
        rows[row.dataset.figure ?? ''] = {
          value: row.dataset.value ?? '',
          shown: row.querySelector<HTMLElement>('.figure-shown')?.innerText ?? '',
          was: row.querySelector<HTMLElement>('.changed-was')?.innerText ?? '',
          changed: row.dataset.changed === 'true',
          text: row.innerText,
        };
      }
      const reading = {
        quoteTime:
          element.querySelector<HTMLElement>('[data-testid="confirm-quote-time"]')?.dataset.value ?? '',
        rows,
        state: element.querySelector<HTMLElement>('[data-testid="requote"]')?.dataset.state ?? null,
      };
      if (confirm) {
        const button = element.querySelector<HTMLButtonElement>('.confirm-actions .button.primary');
        if (!button || button.disabled) return null;
        button.click();
      }
      return reading;
    }, thenConfirm);
  }

  async read(): Promise<Reading> {
    const reading = await this.readAnd(false);
    if (!reading) throw new Error('no reading');
    return reading;
  }

  /** Waits until the dialog shows a quote that is not being refreshed; answers it. */
  async settled(): Promise<Reading> {
    let reading = await this.read();
    await expect
      .poll(
        async () => {
          reading = await this.read();
          return reading.state !== 'refreshing';
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(true);
    return reading;
  }

  /** Waits until a renewal replaced the quote of `before` (and is not refreshing); answers it. */
  async renewedFrom(before: Reading, timeout = 20_000): Promise<Reading> {
    let renewed = before;
    await expect
      .poll(
        async () => {
          renewed = await this.read();
          return renewed.quoteTime !== before.quoteTime && renewed.state !== 'refreshing';
        },
        { timeout, interval: 100 },
      )
      .toBe(true);
    return renewed;
  }

  /** Confirms what is on screen (once the button is enabled) and answers what that was. */
  async confirmShown(): Promise<Reading> {
    let shown: Reading | null = null;
    await expect
      .poll(
        async () => {
          shown = await this.readAnd(true);
          return shown !== null;
        },
        { timeout: 45_000, interval: 100 },
      )
      .toBe(true);
    return shown as unknown as Reading;
  }

  /**
   * Confirms and waits for the order. A machine under load may deliver a confirm after the quote's
   * lifetime; then the dialog renews in place and this confirms the new figures. Answers the
   * figures of the confirm that opened the position; a refusal or a failed renewal fails the test.
   */
  async confirmUntilOpened(): Promise<Confirmed> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const shown = await this.confirmShown();
      let outcome = '';
      await expect
        .poll(
          async () => {
            if (/^\/profile\/orders\/\d+$/.test(new URL(this.page.url()).pathname)) outcome = 'opened';
            else if ((await this.root.count()) === 0) outcome = '';
            else if (await this.root.locator('.form-error').count()) outcome = 'refused';
            else {
              const now = await this.readAnd(false);
              if (now?.state === 'failed') outcome = 'failed';
              else
                outcome =
                  now && now.quoteTime !== shown.quoteTime && now.state !== 'refreshing' ? 'renewed' : '';
            }
            return outcome;
          },
          { timeout: 45_000, interval: 100 },
        )
        .not.toBe('');
      if (outcome === 'opened')
        return {
          ...shown,
          price: shown.rows.price?.value ?? '',
          margin: shown.rows.margin?.value ?? '',
          fee: shown.rows.fee?.value ?? '',
          marginText: shown.rows.margin?.shown ?? '',
        };
      if (outcome === 'refused')
        throw new Error(
          `the confirm was refused: ${await this.root.locator('.form-error').first().innerText()}`,
        );
      if (outcome === 'failed') throw new Error(`renewal failed: ${await this.requote.innerText()}`);
    }
    throw new Error('the order did not open after five renewals');
  }

  /** Whether a locator is wholly inside the viewport. */
  async inView(locator: Locator): Promise<boolean> {
    const viewport = this.page.viewportSize() ?? { width: 390, height: 844 };
    const box = await locator.boundingBox();
    return (
      box !== null &&
      box.x >= 0 &&
      box.y >= 0 &&
      box.x + box.width <= viewport.width &&
      box.y + box.height <= viewport.height
    );
  }
}
