import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** The layout a page is drawn in: the root's data-layout and the shell drawn. */
export type Drawn = {
  layout: string | null;
  shell: 'desktop' | 'mobile' | null;
  topBar: boolean;
  tabBar: boolean;
};

/** A focus ring as drawn: its outer colour, the colour of the surface it sits on, and their contrast. */
export type Ring = { visible: boolean; ring: string; surface: string; contrast: number };

/**
 * What the shell gives every page, as a screen-reader and keyboard customer meets it: the layout
 * drawn, the skip link, the live region's words, the tab bar's labels, the focus ring's colours,
 * and accessible names as the browser computes them.
 */
export class ShellReads extends PageModel {
  readonly announcer = this.page.getByTestId('announcer');
  readonly skipLink = this.page.locator('a.skip-link');
  readonly tabLabels = this.page.locator('.tab-bar a span');
  readonly welcomeBoard = this.page.locator('dialog.welcome-board');

  drawn(): Promise<Drawn> {
    return this.page.evaluate(() => {
      const shell = document.querySelector('#root .shell');
      return {
        layout: document.documentElement.dataset.layout ?? null,
        shell: shell?.classList.contains('desktop')
          ? 'desktop'
          : shell?.classList.contains('mobile')
            ? 'mobile'
            : null,
        topBar: document.querySelector('#root .top-bar') !== null,
        tabBar: document.querySelector('#root .tab-bar') !== null,
      } as const;
    });
  }

  /** How many rows the desktop top bar's tabs take (1 when they fit on one). */
  tabRows(): Promise<number> {
    return this.page
      .locator('nav.tabs li')
      .evaluateAll(
        (items) => new Set(items.map((item) => Math.round(item.getBoundingClientRect().top))).size,
      );
  }

  /** What the live region says now. */
  announced(): Promise<string> {
    return this.announcer.innerText();
  }

  /**
   * The tab bar's labels that do not show whole: cut by their box, sticking out of their tab or
   * of the screen, or with a word broken across two lines.
   */
  cutLabels(): Promise<string[]> {
    return this.tabLabels.evaluateAll((spans) =>
      spans
        .filter((span) => {
          const tab = span.closest('a')?.getBoundingClientRect();
          const box = span.getBoundingClientRect();
          const clipped =
            span.scrollWidth > span.clientWidth + 1 || span.scrollHeight > span.clientHeight + 1;
          const outside =
            !tab ||
            box.left < tab.left - 1 ||
            box.right > tab.right + 1 ||
            box.left < 0 ||
            box.right > window.innerWidth;
          const text = span.firstChild;
          const broken = [...(span.textContent ?? '').matchAll(/\S+/g)].some((word) => {
            if (!text) return false;
            const range = document.createRange();
            range.setStart(text, word.index);
            range.setEnd(text, word.index + word[0].length);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
          });
          return clipped || outside || broken || getComputedStyle(span).textOverflow === 'ellipsis';
        })
        .map((span) => span.textContent ?? ''),
    );
  }

  /** The focused element's ring: its outline colour against the first opaque background behind it. */
  focusRing(): Promise<Ring> {
    return this.page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const rgb = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
      const luminance = (colour: string) => {
        const [r = 0, g = 0, b = 0] = rgb(colour).map((c) => {
          const s = c / 255;
          return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      let surface = 'rgb(255, 255, 255)';
      for (let at = element.parentElement; at; at = at.parentElement) {
        const background = getComputedStyle(at).backgroundColor;
        const alpha = rgb(background)[3];
        if (background !== 'transparent' && alpha !== 0) {
          surface = background;
          break;
        }
      }
      const style = getComputedStyle(element);
      const [hi, lo] = [luminance(style.outlineColor), luminance(surface)].sort((a, b) => b - a) as [
        number,
        number,
      ];
      return {
        visible: element.matches(':focus-visible') && style.outlineStyle !== 'none',
        ring: style.outlineColor,
        surface,
        contrast: (hi + 0.05) / (lo + 0.05),
      };
    });
  }

  /**
   * The accessible names Chromium computes (its accessibility tree, as a screen reader gets it) of
   * the controls, headings, images and regions on the page that hold a bidi isolate control.
   */
  async namesWithIsolates(): Promise<string[]> {
    const cdp = await this.page.context().newCDPSession(this.page);
    try {
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
        nodes: { ignored?: boolean; role?: { value?: string }; name?: { value?: string } }[];
      };
      return nodes
        .filter((node) => !node.ignored && NAMED_ROLES.has(String(node.role?.value)))
        .map((node) => `${node.role?.value}: ${String(node.name?.value ?? '')}`)
        .filter((name) => /[\u2066-\u2069]/.test(name));
    } finally {
      await cdp.detach();
    }
  }

  /** A locator's roles and names as Playwright reads them (its aria snapshot). */
  snapshot(scope: Locator): Promise<string> {
    return scope.ariaSnapshot();
  }
}

/** The roles whose name a screen reader says as the control's or the part's name. */
const NAMED_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'spinbutton',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'option',
  'dialog',
  'alertdialog',
  'heading',
  'image',
  'img',
  'region',
  'navigation',
  'list',
  'table',
  'group',
  'status',
]);
