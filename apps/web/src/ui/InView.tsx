import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A box that shows `children` once it has come into view, above the screen's bottom tenth (where
 * a phone's tab bar covers the page), and `fallback` until then: for work a reader only sees on
 * scrolling to it, such as drawing a chart below the fold of a phone's screen. Give the box its
 * content's size (`className`), so nothing moves when the content comes. Where the browser cannot
 * tell, at once. Only the box renders again when it comes into view.
 */
export function InView({
  className,
  fallback,
  children,
}: {
  className: string;
  fallback: ReactNode;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = box.current;
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
      { rootMargin: '0px 0px -10% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return (
    <div className={className} ref={box}>
      {seen ? children : fallback}
    </div>
  );
}
