import { useEffect } from 'react';

/**
 * Writes the measured block size of the sticky top bar and of the fixed tab bar to the tokens
 * `--top-bar-size` and `--tab-bar-size` (0 when a bar is absent or scrolls with the page), from
 * which the page's scroll padding keeps focused controls clear of them, at any zoom. `chrome`
 * names which bars the shell shows now (they come and go with the page).
 */
export function useBarSizes(chrome: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the bars are found again when the chrome changes
  useEffect(() => {
    const root = document.documentElement;
    const size = (selector: string, stays: string) => {
      const bar = document.querySelector<HTMLElement>(selector);
      if (!bar || getComputedStyle(bar).position !== stays) return 0;
      return Math.ceil(bar.getBoundingClientRect().height);
    };
    const measure = () => {
      root.style.setProperty('--top-bar-size', `${size('.top-bar, .mobile-bar', 'sticky')}px`);
      root.style.setProperty('--tab-bar-size', `${size('.tab-bar', 'fixed')}px`);
    };
    const resize = new ResizeObserver(measure);
    for (const bar of document.querySelectorAll('.top-bar, .mobile-bar, .tab-bar')) resize.observe(bar);
    window.addEventListener('resize', measure);
    measure();
    return () => {
      resize.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [chrome]);
}
