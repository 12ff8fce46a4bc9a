/**
 * Writes the measured block size of the sticky top bar and of the fixed tab bar to the tokens
 * `--top-bar-size` and `--tab-bar-size` (0 when a bar is absent or scrolls with the page), from
 * which the page's scroll padding keeps focused controls clear of them, at any zoom. The bars come
 * and go with the page (login and register have none), so they are looked for again on each change
 * of the app's tree. Returns a stop.
 */
export function watchBarSizes(): () => void {
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
  let watched: Element[] = [];
  let frame = 0;
  const findBars = () => {
    frame = 0;
    const bars = [...document.querySelectorAll('.top-bar, .mobile-bar, .tab-bar')];
    if (bars.length === watched.length && bars.every((bar, i) => bar === watched[i])) return;
    resize.disconnect();
    for (const bar of bars) resize.observe(bar);
    watched = bars;
    measure();
  };
  const tree = new MutationObserver(() => {
    if (!frame) frame = requestAnimationFrame(findBars);
  });
  tree.observe(document.body, { childList: true, subtree: true });
  window.addEventListener('resize', measure);
  findBars();
  return () => {
    tree.disconnect();
    resize.disconnect();
    cancelAnimationFrame(frame);
    window.removeEventListener('resize', measure);
  };
}
