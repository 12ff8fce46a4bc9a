import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { twoFrames } from '../browser.ts';

/** Where keyboard focus is, as a keyboard and screen-reader customer meets it. */
export type FocusState = {
  /** The focused element's tag (BODY when focus was lost). */
  tag: string;
  /** Its name as read out: aria-label, else its label, else its text. */
  name: string;
  /** The focus indicator is drawn: an outline of at least 2 px that is not `none`. */
  ringShown: boolean;
  /** At the centre of its box is the element itself or something inside it (no bar on top). */
  uncovered: boolean;
  /** Some part of it lies inside the viewport. */
  inView: boolean;
  /** Where it was, in viewport pixels, and the page's scroll and viewport height: for a failure's message. */
  where: string;
};

/**
 * Drives a page by keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, Escape, typing) and
 * reads what a keyboard and screen-reader customer gets: where focus is, whether it can be seen,
 * and what the app's live region says. No clicks.
 */
export class KeyboardUser {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async press(key: string, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) await this.page.keyboard.press(key);
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  /** The focused element, described. */
  focus(): Promise<FocusState> {
    return this.page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body)
        return { tag: 'BODY', name: '', ringShown: false, uncovered: false, inView: false, where: '' };
      const labelled = element.getAttribute('aria-label');
      const label = (element as HTMLInputElement).labels?.[0]?.textContent;
      // The text a screen reader reads: without what is aria-hidden.
      const spoken = (node: Node): string =>
        node.nodeType === Node.TEXT_NODE
          ? (node.textContent ?? '')
          : node instanceof Element && node.getAttribute('aria-hidden') === 'true'
            ? ''
            : [...node.childNodes].map(spoken).join('');
      const name = (labelled ?? label ?? spoken(element)).replace(/\s+/g, ' ').trim();
      const style = getComputedStyle(element);
      const ringShown = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
      // Each box of the element (a link wrapping onto two lines has two), cut to the viewport: it
      // is in view when some part is, and uncovered when at the centre of such a part is itself.
      const parts = [...element.getClientRects()]
        .map((r) => ({
          left: Math.max(r.left, 0),
          right: Math.min(r.right, window.innerWidth),
          top: Math.max(r.top, 0),
          bottom: Math.min(r.bottom, window.innerHeight),
        }))
        .filter((r) => r.right - r.left >= 1 && r.bottom - r.top >= 1);
      const inView = parts.length > 0;
      const uncovered = parts.some((r) => {
        const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        return at !== null && (at === element || element.contains(at));
      });
      const box = element.getBoundingClientRect();
      const where = `top ${Math.round(box.top)} bottom ${Math.round(box.bottom)} of ${window.innerHeight}, scrollY ${Math.round(window.scrollY)}`;
      return { tag: element.tagName, name, ringShown, uncovered, inView, where };
    });
  }

  /**
   * Presses Tab (or Shift+Tab) until the focused element's name matches, at most `max` times;
   * fails when it is not reached.
   */
  async tabTo(name: string | RegExp, options: { back?: boolean; max?: number } = {}): Promise<FocusState> {
    const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
    for (let i = 0; i < (options.max ?? 80); i++) {
      await this.page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
      const now = await this.focus();
      if (matches(now.name)) return now;
    }
    throw new Error(`Tab never reached ${String(name)}; focus is on ${JSON.stringify(await this.focus())}`);
  }

  /** The focused element once two more frames are drawn (what the customer sees after a layout change). */
  async focusAfterFrames(): Promise<FocusState> {
    await twoFrames(this.page);
    return this.focus();
  }

  /** Waits until focus is on an element so named, then checks it is seen: ring drawn, nothing over it. */
  async expectFocusOn(name: string | RegExp, tag?: string): Promise<FocusState> {
    // Name and tag are waited for together: the control pressed may bear the same name as where
    // focus is going (the tab bar's "Home" link and the home page's title), so a name alone would
    // match before focus moved.
    const named = typeof name === 'string' ? new RegExp(`^${escapeRegExp(name)}$`) : name;
    await expect
      .poll(
        async () => {
          const state = await this.focus();
          return named.test(state.name) && (!tag || state.tag === tag);
        },
        { timeout: 15_000, message: `focus on ${String(name)}${tag ? ` (${tag})` : ''}` },
      )
      .toBe(true);
    const now = await this.focus();
    if (tag) expect(now.tag, `${String(name)}: tag`).toBe(tag);
    await this.expectSeen(now);
    return now;
  }

  /** The focused element (never the body) has its ring drawn and is not under anything. */
  async expectSeen(now?: FocusState): Promise<void> {
    const state = now ?? (await this.focus());
    expect(state.tag, 'focus is not lost to the body').not.toBe('BODY');
    expect(state.ringShown, `${state.name}: focus ring drawn`).toBe(true);
    expect(state.inView, `${state.name}: in view`).toBe(true);
    expect(state.uncovered, `${state.name}: not covered`).toBe(true);
  }

  /**
   * Puts a match of `selector` right behind the sticky top bar (or the fixed tab bar), with
   * focus on the control before it (after it, going back), then presses Tab (Shift+Tab) onto it:
   * the browser must scroll it clear of the bar. Returns where focus landed.
   */
  async tabOntoBehindBar(selector: string, bar: 'top' | 'bottom', back = false): Promise<FocusState> {
    await this.page.evaluate(
      ({ selector, bar, back }) => {
        // A match far enough down the page for it to be scrolled behind the bar.
        const target = [...document.querySelectorAll<HTMLElement>(selector)].find(
          (element) =>
            element.checkVisibility() &&
            element.getBoundingClientRect().top + window.scrollY >=
              (bar === 'top' ? 200 : window.innerHeight + 50),
        );
        if (!target) throw new Error(`no ${selector} far enough down the page`);
        const all = [
          ...document.querySelectorAll<HTMLElement>(
            'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])',
          ),
        ].filter((element) => element.checkVisibility());
        const before = all[all.indexOf(target) + (back ? 1 : -1)];
        if (!before) throw new Error(`nothing next to ${selector}`);
        before.focus({ preventScroll: true });
        const box = target.getBoundingClientRect();
        window.scrollBy(0, bar === 'top' ? box.top - 1 : box.bottom - window.innerHeight + 1);
      },
      { selector, bar, back },
    );
    await this.press(back ? 'Shift+Tab' : 'Tab');
    return this.focus();
  }

  /** What the app's one polite live region says now. */
  announced(): Promise<string> {
    return this.page.getByTestId('announcer').innerText();
  }

  async expectAnnounced(text: string | RegExp): Promise<void> {
    await expect
      .poll(() => this.announced(), { timeout: 15_000, message: 'the live region' })
      .toMatch(typeof text === 'string' ? new RegExp(escapeRegExp(text)) : text);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Register and log in pages, by keyboard. */
export class PassPagesByKeyboard extends KeyboardUser {
  /** Fills the field reached by Tab under this label. */
  async fill(label: string | RegExp, text: string): Promise<void> {
    await this.tabTo(label);
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.type(text);
  }
}

/** The instrument page's ticket, the confirm dialog and the order pages, by keyboard. */
export class TradingByKeyboard extends KeyboardUser {
  /** Confirms the order in the open confirm dialog; a refused quote shows new figures, confirmed again. */
  async confirmOrder(): Promise<void> {
    const dialog = this.page.getByTestId('order-confirm');
    for (let attempt = 0; attempt < 5; attempt++) {
      const confirm = await this.tabTo('Confirm and open', { max: 40 }).catch(() => null);
      if (confirm) await this.press('Enter');
      const done = await expect
        .poll(() => new URL(this.page.url()).pathname, { timeout: 10_000 })
        .toMatch(/^\/profile\/orders\/\d+$/)
        .then(() => true)
        .catch(() => false);
      if (done) return;
      await dialog.getByTestId('requote').waitFor();
    }
    throw new Error('the order was never confirmed');
  }
}
