import { LANGUAGE_NAMES, type Language, type StaffInfo } from '@swx/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { BrowserRouter, Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { alertsSections } from './alerts/sections.ts';
import { callAdmin, setApiLanguage, setExpiredHandler, storedSession, storeSession } from './api.ts';
import { Ctx, useBackOffice } from './context.ts';
import { earnSections } from './earn/sections.ts';
import { fourEyesSections } from './fourEyes/sections.ts';
import { helpSections } from './help/sections.ts';
import { invitesSections } from './invites/sections.ts';
import { loansSections } from './loans/sections.ts';
import { nftSections } from './nft/sections.ts';
import { operatorSections } from './operator/sections.ts';
import { queryClient } from './query.ts';
import { SignIn } from './SignIn.tsx';
import { coreSections, type Section } from './sections.ts';
import { smartSections } from './smart/sections.ts';
import { supportSections } from './support/sections.ts';
import { swapSections } from './swap/sections.ts';
import { applyDocumentLanguage, fill, LANGUAGES, staffLanguage, textFor } from './text.ts';
import { walletSections } from './wallet/sections.ts';

/** Every section, in the menu's order: each feature's own, between the core's. */
const SECTIONS: readonly Section[] = [
  ...coreSections.slice(0, 2),
  ...walletSections,
  ...earnSections,
  ...swapSections,
  ...loansSections,
  ...smartSections,
  ...invitesSections,
  ...nftSections,
  ...coreSections.slice(2),
  ...alertsSections,
  ...supportSections,
  ...operatorSections,
  ...helpSections,
  ...fourEyesSections,
];

/** Every screen with its URL, opened only by the roles of the section it belongs to. */
const SCREENS = SECTIONS.flatMap((section) =>
  section.screens.map(({ path, Screen }) => ({ path, roles: section.roles, Screen })),
);

const mayOpen = (staff: StaffInfo, roles: Section['roles']) =>
  roles === 'public' || roles.includes(staff.role);

/** A section the staff member's role may not open: said so, not an empty screen. */
function Guard({
  staff,
  roles,
  children,
}: {
  staff: StaffInfo;
  roles: Section['roles'];
  children: ReactNode;
}) {
  const { text } = useBackOffice();
  if (!mayOpen(staff, roles))
    return (
      <p className="alert" role="alert">
        {text.forbidden}
      </p>
    );
  return <>{children}</>;
}

/** After a navigation inside the app, focus goes to the new screen's heading. */
function FocusOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new path, which it does not read
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h2');
    heading?.focus();
  }, [pathname]);
  return null;
}

/** The bar: the back office's name, who is signed in (and signing out), the language. */
function TopBar({
  language,
  onLanguage,
  onSignOut,
}: {
  language: Language;
  onLanguage: (language: Language) => void;
  onSignOut: () => void;
}) {
  const { text, staff } = useBackOffice();
  return (
    <header className="admin-bar">
      <h1>{text.title}</h1>
      <div className="bar-end">
        {staff ? (
          <>
            <span className="who">
              {fill(text.signedInAs, { email: staff.email, role: text.roles[staff.role] })}
            </span>
            <button type="button" className="on-dark" onClick={onSignOut}>
              {text.signOut}
            </button>
          </>
        ) : null}
        <label>
          <span className="visually-hidden">{text.language}</span>
          <select value={language} onChange={(event) => onLanguage(event.target.value as Language)}>
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
      </div>
    </header>
  );
}

/**
 * The menu of the sections the staff member's role may open: a bar on a wide screen; on a phone
 * (admin.css, under 40rem) one row with a Menu button that shows the list (a disclosure: Escape or
 * choosing a section closes it, Escape gives focus back to the button).
 */
function SectionNav({ sections }: { sections: readonly Section[] }) {
  const { text, language } = useBackOffice();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const list = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.preventDefault();
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <nav className="admin-nav" aria-label={text.nav.label} onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls={list}
        onClick={() => setOpen(!open)}
      >
        <span className="menu-icon" aria-hidden="true" />
        {text.nav.menu}
      </button>
      <ul id={list} data-open={open ? '' : undefined}>
        {sections.map((s) => (
          <li key={s.path}>
            <NavLink to={s.path} onClick={() => setOpen(false)}>
              {s.label(language)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The screens: / opens the first section the role may open; an unknown path says so. */
function Screens({ staff, sections }: { staff: StaffInfo; sections: readonly Section[] }) {
  const { text } = useBackOffice();
  return (
    <>
      <FocusOnNavigate />
      <Routes>
        <Route
          path="/"
          element={sections[0] ? <Navigate to={sections[0].path} replace /> : <p>{text.forbidden}</p>}
        />
        {SCREENS.map(({ path, roles, Screen }) => (
          <Route
            key={path}
            path={path}
            element={
              <Guard staff={staff} roles={roles}>
                <Screen />
              </Guard>
            }
          />
        ))}
        <Route
          path="*"
          element={
            <section className="panel">
              <h2 tabIndex={-1}>{text.notFound}</h2>
            </section>
          }
        />
      </Routes>
    </>
  );
}

/** The language (chosen here, kept in the browser) and the staff session (ended by a 401 too). */
function useShellState() {
  const [language, setLanguage] = useState<Language>(staffLanguage);
  const [staff, setStaff] = useState<StaffInfo | null>(() => storedSession()?.staff ?? null);
  const text = textFor(language);
  setApiLanguage(language);
  useEffect(() => {
    applyDocumentLanguage(language);
    document.title = text.title;
  }, [language, text.title]);
  useEffect(() => {
    setExpiredHandler(() => {
      queryClient.clear();
      setStaff(null);
    });
  }, []);
  const context = useMemo(() => ({ text, language, staff }), [text, language, staff]);
  return {
    context,
    chooseLanguage: (next: Language) => {
      localStorage.setItem('adminLanguage', next);
      setLanguage(next);
    },
    signedIn: (session: { token: string; staff: StaffInfo }) => {
      storeSession(session);
      setStaff(session.staff);
    },
    signOut: async () => {
      await callAdmin('signOut').catch(() => undefined);
      storeSession(null);
      queryClient.clear();
      setStaff(null);
    },
  };
}

function Shell() {
  const { context, chooseLanguage, signedIn, signOut } = useShellState();
  const { staff, language } = context;
  const sections = staff ? SECTIONS.filter((s) => mayOpen(staff, s.roles)) : [];
  return (
    <Ctx.Provider value={context}>
      <div className="admin">
        <TopBar language={language} onLanguage={chooseLanguage} onSignOut={() => void signOut()} />
        {staff && sections.length > 0 ? <SectionNav sections={sections} /> : null}
        <main className="admin-main">
          {/* Signing in keeps the URL: a deep link opens its screen once signed in. */}
          {staff ? <Screens staff={staff} sections={sections} /> : <SignIn onSignedIn={signedIn} />}
        </main>
      </div>
    </Ctx.Provider>
  );
}

/** The staff back office at /admin/: sign-in with TOTP, then the sections the staff role allows. */
export function BackOffice() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/admin">
        <Shell />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
