import { useEffect, useState } from 'react';

/**
 * Whether the element given to `ref` has come into view, above the screen's bottom tenth (and stays
 * true once it has): for work a
 * reader only sees on scrolling to it, such as drawing a chart below the fold of a phone's screen,
 * done as it scrolls into view instead of with the page. Where the browser cannot tell, at once.
 * A callback ref: the element may appear after the component mounts (once its data is there).
 */
export function useInView(): [ref: (element: Element | null) => void, seen: boolean] {
  const [element, setElement] = useState<Element | null>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (seen || !element) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setSeen(true);
      },
      // Above the screen's bottom tenth, where a phone's tab bar covers the page.
      { rootMargin: '0px 0px -10% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, seen]);
  return [setElement, seen];
}
