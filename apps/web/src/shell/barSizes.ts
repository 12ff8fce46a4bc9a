/**
 * Writes the measured block size of the sticky top bar and of the fixed tab bar to the tokens
 * `--top-bar-size` and `--tab-bar-size` (0 when a bar is absent or scrolls with the page), from
 * which the page's scroll padding keeps focused controls clear of them, at any zoom. The bars come
 * and go with the page (login and register have none), so they are looked for again on each change
 * of the app's tree. Returns a stop.
 */
export function watchBarSizes(): () => void {
  const root = document.documentElement;
  let written = '';
  const size = (selector: string, stays: string) => {
    const bar = document.querySelector<HTMLElement>(selector);
    if (!bar || getComputedStyle(bar).position !== stays) return 0;
    return Math.ceil(bar.getBoundingClientRect().height);
  };
  // Both sizes read before either is written: a write to the root's custom properties restyles
  // the whole page, and a read after it would force that restyle and a layout on the spot.
  const measure = () => {
    const top = size('.top-bar, .mobile-bar', 'sticky');
    const tab = size('.tab-bar', 'fixed');
    if (`${top}:${tab}` === written) return;
    written = `${top}:${tab}`;
    root.style.setProperty('--top-bar-size', `${top}px`);
    root.style.setProperty('--tab-bar-size', `${tab}px`);
  };
  // The observer reports each bar once it is observed, and then on each change of its size, after
  // the frame's own layout: measuring there forces no layout of its own (the start of the app
  // included, when this is installed in the middle of the first page's rendering).
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
    // No bar left to report: the sizes are 0, known without a layout.
    if (bars.length === 0) measure();
  };
  const tree = new MutationObserver(() => {
    if (!frame) frame = requestAnimationFrame(findBars);
  });
  tree.observe(document.body, { childList: true, subtree: true });
  // A resize may turn a bar sticky or fixed without changing its size; measured in the next frame.
  const resized = () => requestAnimationFrame(measure);
  window.addEventListener('resize', resized);
  findBars();
  return () => {
    tree.disconnect();
    resize.disconnect();
    cancelAnimationFrame(frame);
    window.removeEventListener('resize', resized);
  };
}
