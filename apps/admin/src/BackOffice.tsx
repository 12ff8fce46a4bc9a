import { adminCalls, LANGUAGE_NAMES, type Language, type StaffInfo } from '@swx/contract';
import { useEffect, useMemo, useState } from 'react';
import { callAdmin, setApiLanguage, setExpiredHandler, storedSession, storeSession } from './api.ts';
import { Customers } from './Customers.tsx';
import { Ctx } from './context.ts';
import { KycQueue } from './KycQueue.tsx';
import { SignIn } from './SignIn.tsx';
import { applyDocumentLanguage, fill, LANGUAGES, staffLanguage, textFor } from './text.ts';

type Section = 'customers' | 'kyc';
const allowed = (roles: readonly string[] | 'public', staff: StaffInfo) =>
  roles === 'public' || roles.includes(staff.role);

/** The staff back office at /admin: sign-in with TOTP, then the sections the staff role allows. */
export function BackOffice() {
  const [language, setLanguage] = useState<Language>(staffLanguage);
  const [staff, setStaff] = useState<StaffInfo | null>(() => storedSession()?.staff ?? null);
  const [section, setSection] = useState<Section>('customers');
  const text = textFor(language);
  setApiLanguage(language);
  useEffect(() => {
    applyDocumentLanguage(language);
    document.title = text.title;
  }, [language, text.title]);
  useEffect(() => {
    setExpiredHandler(() => setStaff(null));
  }, []);
  const context = useMemo(() => ({ text, language, staff }), [text, language, staff]);
  const sections = staff
    ? (
        [
          ['customers', allowed(adminCalls.searchCustomers.roles, staff)],
          ['kyc', allowed(adminCalls.kycQueue.roles, staff)],
        ] as const
      )
        .filter(([, ok]) => ok)
        .map(([name]) => name)
    : [];
  const current = sections.includes(section) ? section : sections[0];
  const signOut = async () => {
    await callAdmin('signOut').catch(() => undefined);
    storeSession(null);
    setStaff(null);
  };
  return (
    <Ctx.Provider value={context}>
      <div className="admin">
        <header className="admin-bar">
          <h1>{text.title}</h1>
          <div className="bar-end">
            {staff ? (
              <>
                <span className="who">
                  {fill(text.signedInAs, { email: staff.email, role: text.roles[staff.role] })}
                </span>
                <button type="button" className="on-dark" onClick={() => void signOut()}>
                  {text.signOut}
                </button>
              </>
            ) : null}
            <label>
              <span className="visually-hidden">{text.language}</span>
              <select
                value={language}
                onChange={(event) => {
                  const next = event.target.value as Language;
                  localStorage.setItem('adminLanguage', next);
                  setLanguage(next);
                }}
              >
                {LANGUAGES.map((code) => (
                  <option key={code} value={code}>
                    {LANGUAGE_NAMES[code]}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </header>
        {staff && sections.length > 0 ? (
          <nav className="admin-nav" aria-label={text.nav.label}>
            <ul>
              {sections.map((name) => (
                <li key={name}>
                  <button
                    type="button"
                    aria-current={current === name ? 'page' : undefined}
                    onClick={() => setSection(name)}
                  >
                    {text.nav[name]}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <main className="admin-main">
          {!staff ? (
            <SignIn
              onSignedIn={(session) => {
                storeSession(session);
                setStaff(session.staff);
              }}
            />
          ) : current === 'kyc' ? (
            <KycQueue />
          ) : current === 'customers' ? (
            <Customers />
          ) : null}
        </main>
      </div>
    </Ctx.Provider>
  );
}
