import { adminCalls, LANGUAGE_NAMES, type Language, type StaffInfo } from '@swx/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { BrowserRouter, Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { AuditLog } from './AuditLog.tsx';
import { Alerts } from './alerts/Alerts.tsx';
import { callAdmin, setApiLanguage, setExpiredHandler, storedSession, storeSession } from './api.ts';
import { CustomerPage } from './CustomerPage.tsx';
import { Customers } from './Customers.tsx';
import { Ctx, useBackOffice } from './context.ts';
import { EarnProductPage, NewEarnProduct } from './earn/EarnProductPage.tsx';
import { EarnProducts } from './earn/EarnProducts.tsx';
import { EarnProofPage, EarnProofQueue } from './earn/EarnProofs.tsx';
import { FourEyesSettings } from './fourEyes/FourEyesSettings.tsx';
import { KycQueue, KycReviewPage } from './KycQueue.tsx';
import { LoanApplicationPage, LoanApplicationQueue } from './loans/LoanApplications.tsx';
import { LoanPools } from './loans/LoanPools.tsx';
import { LoanProductPage, NewLoanProduct } from './loans/LoanProductPage.tsx';
import { LoanProducts } from './loans/LoanProducts.tsx';
import { LoanProofPage, LoanProofQueue } from './loans/LoanProofs.tsx';
import { OverdueLoans } from './loans/OverdueLoans.tsx';
import { OperatorSettings } from './operator/OperatorSettings.tsx';
import { queryClient } from './query.ts';
import { SignIn } from './SignIn.tsx';
import { StaffScreen } from './StaffScreen.tsx';
import { SmartPlanPage, SmartPlans } from './smart/SmartPlans.tsx';
import { NewSmartProduct, SmartProductPage } from './smart/SmartProductPage.tsx';
import { SmartProducts } from './smart/SmartProducts.tsx';
import { SwapPairs } from './swap/SwapPairs.tsx';
import { applyDocumentLanguage, fill, LANGUAGES, staffLanguage, textFor } from './text.ts';
import { Networks } from './wallet/Networks.tsx';
import { Treasury } from './wallet/Treasury.tsx';
import {
  DepositQueue,
  DepositReviewPage,
  WithdrawalQueue,
  WithdrawalReviewPage,
} from './wallet/WalletQueues.tsx';

/**
 * The sections of the back office: each has a URL (and its items theirs, e.g. /admin/customers/12),
 * shown to the roles the contract allows for its main call.
 */
const SECTIONS = [
  { name: 'customers', path: '/customers', roles: adminCalls.searchCustomers.roles },
  { name: 'kyc', path: '/kyc', roles: adminCalls.kycQueue.roles },
  { name: 'deposits', path: '/deposits', roles: adminCalls.depositQueue.roles },
  { name: 'withdrawals', path: '/withdrawals', roles: adminCalls.withdrawalQueue.roles },
  { name: 'networks', path: '/networks', roles: adminCalls.listNetworksAdmin.roles },
  { name: 'treasury', path: '/treasury', roles: adminCalls.treasury.roles },
  { name: 'earnProducts', path: '/earn/products', roles: adminCalls.listEarnProducts.roles },
  { name: 'earnProofs', path: '/earn/proofs', roles: adminCalls.earnProofQueue.roles },
  { name: 'swapPairs', path: '/swap/pairs', roles: adminCalls.listSwapPairs.roles },
  { name: 'loanProducts', path: '/loans/products', roles: adminCalls.listLoanProducts.roles },
  { name: 'loanPools', path: '/loans/pools', roles: adminCalls.listLoanPools.roles },
  {
    name: 'loanApplications',
    path: '/loans/applications',
    roles: adminCalls.loanApplicationQueue.roles,
  },
  { name: 'loanProofs', path: '/loans/proofs', roles: adminCalls.loanProofQueue.roles },
  { name: 'loanOverdue', path: '/loans/overdue', roles: adminCalls.overdueLoans.roles },
  { name: 'smartProducts', path: '/smart/products', roles: adminCalls.listSmartProducts.roles },
  { name: 'smartPlans', path: '/smart/plans', roles: adminCalls.smartPlanMonitor.roles },
  { name: 'staff', path: '/staff', roles: adminCalls.listStaff.roles },
  { name: 'audit', path: '/audit', roles: adminCalls.auditLog.roles },
  { name: 'alerts', path: '/alerts', roles: adminCalls.listStaffAlerts.roles },
  { name: 'operator', path: '/settings/operator', roles: adminCalls.getOperatorSettings.roles },
  { name: 'fourEyes', path: '/settings/four-eyes', roles: adminCalls.getFourEyes.roles },
] as const;
type SectionName = (typeof SECTIONS)[number]['name'];

/** Every screen with its URL, opened only by the roles of the section it belongs to. */
const SCREENS: readonly { path: string; section: SectionName; Screen: ComponentType }[] = [
  { path: '/customers', section: 'customers', Screen: Customers },
  { path: '/customers/:id', section: 'customers', Screen: CustomerPage },
  { path: '/kyc', section: 'kyc', Screen: KycQueue },
  { path: '/kyc/:id', section: 'kyc', Screen: KycReviewPage },
  { path: '/deposits', section: 'deposits', Screen: DepositQueue },
  { path: '/deposits/:id', section: 'deposits', Screen: DepositReviewPage },
  { path: '/withdrawals', section: 'withdrawals', Screen: WithdrawalQueue },
  { path: '/withdrawals/:id', section: 'withdrawals', Screen: WithdrawalReviewPage },
  { path: '/networks', section: 'networks', Screen: Networks },
  { path: '/treasury', section: 'treasury', Screen: Treasury },
  { path: '/earn/products', section: 'earnProducts', Screen: EarnProducts },
  { path: '/earn/products/new', section: 'earnProducts', Screen: NewEarnProduct },
  { path: '/earn/products/:id', section: 'earnProducts', Screen: EarnProductPage },
  { path: '/earn/proofs', section: 'earnProofs', Screen: EarnProofQueue },
  { path: '/earn/proofs/:id', section: 'earnProofs', Screen: EarnProofPage },
  { path: '/swap/pairs', section: 'swapPairs', Screen: SwapPairs },
  { path: '/loans/products', section: 'loanProducts', Screen: LoanProducts },
  { path: '/loans/products/new', section: 'loanProducts', Screen: NewLoanProduct },
  { path: '/loans/products/:id', section: 'loanProducts', Screen: LoanProductPage },
  { path: '/loans/pools', section: 'loanPools', Screen: LoanPools },
  { path: '/loans/applications', section: 'loanApplications', Screen: LoanApplicationQueue },
  { path: '/loans/applications/:id', section: 'loanApplications', Screen: LoanApplicationPage },
  { path: '/loans/proofs', section: 'loanProofs', Screen: LoanProofQueue },
  { path: '/loans/proofs/:id', section: 'loanProofs', Screen: LoanProofPage },
  { path: '/loans/overdue', section: 'loanOverdue', Screen: OverdueLoans },
  { path: '/smart/products', section: 'smartProducts', Screen: SmartProducts },
  { path: '/smart/products/new', section: 'smartProducts', Screen: NewSmartProduct },
  { path: '/smart/products/:id', section: 'smartProducts', Screen: SmartProductPage },
  { path: '/smart/plans', section: 'smartPlans', Screen: SmartPlans },
  { path: '/smart/plans/:id', section: 'smartPlans', Screen: SmartPlanPage },
  { path: '/staff', section: 'staff', Screen: StaffScreen },
  { path: '/audit', section: 'audit', Screen: AuditLog },
  { path: '/alerts', section: 'alerts', Screen: Alerts },
  { path: '/settings/operator', section: 'operator', Screen: OperatorSettings },
  { path: '/settings/four-eyes', section: 'fourEyes', Screen: FourEyesSettings },
];

const mayOpen = (staff: StaffInfo, roles: readonly string[] | 'public') =>
  roles === 'public' || roles.includes(staff.role);

/** A section the staff member's role may not open: said so, not an empty screen. */
function Guard({
  staff,
  section,
  children,
}: {
  staff: StaffInfo;
  section: SectionName;
  children: ReactNode;
}) {
  const { text } = useBackOffice();
  const entry = SECTIONS.find((s) => s.name === section);
  if (entry && !mayOpen(staff, entry.roles))
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

function Shell() {
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
  const sections = staff ? SECTIONS.filter((s) => mayOpen(staff, s.roles)) : [];
  const signOut = async () => {
    await callAdmin('signOut').catch(() => undefined);
    storeSession(null);
    queryClient.clear();
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
              {sections.map((s) => (
                <li key={s.name}>
                  <NavLink to={s.path}>{text.nav[s.name]}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <main className="admin-main">
          {!staff ? (
            // Signing in keeps the URL: a deep link opens its screen once signed in.
            <SignIn
              onSignedIn={(session) => {
                storeSession(session);
                setStaff(session.staff);
              }}
            />
          ) : (
            <>
              <FocusOnNavigate />
              <Routes>
                <Route
                  path="/"
                  element={sections[0] ? <Navigate to={sections[0].path} replace /> : <p>{text.forbidden}</p>}
                />
                {SCREENS.map(({ path, section, Screen }) => (
                  <Route
                    key={path}
                    path={path}
                    element={
                      <Guard staff={staff} section={section}>
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
          )}
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
