import { Activity, lazy, type ReactNode, Suspense, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { routeMeta, TABS } from '../app/routes.ts';
import { useClientState } from '../app/state.ts';
import { Icon } from './icons.tsx';
import { LanguageButton } from './LanguagePicker.tsx';
import { NoticeBell } from './NoticeBell.tsx';
import { ServiceLink } from './ServiceLink.tsx';
import './shell.css';

/** The welcome board is shown once per session, on a phone: its own chunk. */
const WelcomeBoard = lazy(() => import('./WelcomeBoard.tsx'));
/** Whether a title shows whole where it is: no word wider than its box, at most two lines. */
function titleFits(heading: HTMLElement): boolean {
  const lineHeight = Number.parseFloat(getComputedStyle(heading).lineHeight) || 20;
  return heading.scrollWidth <= heading.clientWidth && heading.scrollHeight <= 2 * lineHeight + 1;
}

/**
 * The title between the bar's buttons, wrapping at word boundaries to two lines; when it does not
 * fit there whole (long words, as in German or French, beside a wide Login button), it takes a row
 * of its own under the buttons. Never cut mid-word or behind an ellipsis.
 */
function useStackedTitle(measureKey: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [stacked, setStacked] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names what changes the title's room
  useLayoutEffect(() => {
    setStacked(false);
  }, [measureKey]);
  const mounted = useRef(false);
  // Measured as the commit ends; the app's first commit only, in the next frame before it is
  // painted: reading the title's size there would force the page's whole first layout (fonts and
  // all) into the commit's task, while in the frame it is the layout the browser does anyway.
  useLayoutEffect(() => {
    if (stacked) return;
    const fits = () => !heading.current || titleFits(heading.current);
    if (mounted.current) {
      if (!fits()) setStacked(true);
      return;
    }
    mounted.current = true;
    const frame = requestAnimationFrame(() => {
      if (!fits()) flushSync(() => setStacked(true));
    });
    return () => cancelAnimationFrame(frame);
  });
  return { heading, stacked };
}

/** Back, away from the six tab roots: in the history when there is one, else home. */
function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="icon-button flip-rtl"
      aria-label={t('action.back')}
      onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}
    >
      <Icon name="back" />
    </button>
  );
}

/** The bar's end: language, the bell when logged in, service, Login when logged out. */
function BarEnd({ isLogin }: { isLogin: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="mobile-bar-end">
      <LanguageButton />
      {isLogin ? <NoticeBell /> : null}
      <ServiceLink />
      {isLogin ? null : (
        <Link className="button primary small" to="/pass/login">
          {t('action.login')}
        </Link>
      )}
    </div>
  );
}

/** The bottom tab bar: the six tab roots. */
function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t('nav.tabBar')}>
      <ul>
        {TABS.map((tab) => (
          <li key={tab.key}>
            <NavLink to={tab.path} end={tab.path === '/'}>
              <Icon name={tab.key} />
              <span>{t(`nav.${tab.key}`)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * Mobile: the skip link, top bar (back away from the six tab roots, title, language, bell when
 * logged in, service, Login when logged out), bottom tab bar, and the welcome board once per
 * session on a phone.
 */
export function MobileShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isLogin = useClientState((s) => s.isLogin);
  // On a phone (by user agent; a narrow desktop window has this shell, never the board).
  const board = useClientState((s) => s.isPhone && !s.welcomeShown);
  const route = routeMeta(pathname);
  const callback = route.chrome === 'bare';
  const title = t(`title.${route.title}`);
  const language = useClientState((s) => s.language);
  const viewWidth = useClientState((s) => s.viewWidth);
  const { heading, stacked } = useStackedTitle(`${pathname} ${language} ${isLogin} ${viewWidth} ${title}`);
  return (
    <div className="shell mobile">
      <a className="skip-link" href="#main">
        {t('a11y.skipToContent')}
      </a>
      <header className={stacked ? 'mobile-bar stacked' : 'mobile-bar'}>
        <div className="mobile-bar-start">{route.tabRoot ? null : <BackButton />}</div>
        <h1 ref={heading} className="mobile-title" data-stacked={stacked ? 'true' : undefined}>
          {title}
        </h1>
        <BarEnd isLogin={isLogin} />
      </header>
      <main id="main" tabIndex={-1} className={callback ? 'no-tab-bar' : undefined}>
        {/* Under the welcome board (a modal that leaves to this page, home or registration) the
            page is not shown: React prepares it hidden, after everything else, and mounts its
            effects (its data, its quotes) only once the board is gone. */}
        <Activity mode={board ? 'hidden' : 'visible'}>{children}</Activity>
      </main>
      {callback ? null : <TabBar />}
      {board ? (
        <Suspense fallback={null}>
          <WelcomeBoard />
        </Suspense>
      ) : null}
    </div>
  );
}
