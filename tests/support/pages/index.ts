// The page models of the browser tests: one class per screen, holding its locators and offering what
// a person does there. Import them from here.

export { AddressesPage } from './addresses-page.ts';
export { AuditPage } from './admin/audit-page.ts';
export { BackOffice } from './admin/back-office.ts';
export { CustomersPage } from './admin/customers-page.ts';
export { EarnProductsPage, EarnProofReviewPage, type NewProduct } from './admin/earn-pages.ts';
export { FourEyesPage } from './admin/four-eyes-page.ts';
export { KycReviewPage } from './admin/kyc-review-page.ts';
export {
  LoanApplicationReviewPage,
  LoanPoolsPage,
  LoanProductsPage,
  LoanProofReviewPage,
  type NewLoanProduct,
  OverdueLoansPage,
} from './admin/loan-pages.ts';
export { AdminSignInPage } from './admin/sign-in-page.ts';
export { type NewSmartProduct, SmartPlansPage, SmartProductsPage } from './admin/smart-pages.ts';
export { StaffPage } from './admin/staff-page.ts';
export { SwapPairsPage } from './admin/swap-pairs-page.ts';
export { DepositReviewPage, NetworksPage, TreasuryPage, WithdrawalReviewPage } from './admin/wallet-pages.ts';
export { BalancePage } from './balance-page.ts';
export { badgeOf, DEMO_NAME, LIVE_NAME } from './book-badge.ts';
export { ConfirmDialog, type Confirmed, type Reading } from './confirm-dialog.ts';
export { ContentPage } from './content-page.ts';
export { CustodyPage } from './custody-page.ts';
export { DepositPage, type Proof } from './deposit-page.ts';
export { EarnListPage, EarnProductPage, MyInvestPage } from './earn-pages.ts';
export { figure, figureValue } from './figures.ts';
export { HelpCentrePage, HelpEditorPage } from './help-pages.ts';
export { InstrumentPage, type QuoteReading } from './instrument-page.ts';
export { InvitePage } from './invite-page.ts';
export { LanguagePage } from './language-page.ts';
export { LoanBorrowPage, LoanBrowsePage, LoanDetailPage, LoanRecordsPage } from './loan-pages.ts';
export { LoginPage } from './login-page.ts';
export { MarketPage } from './market-page.ts';
export { MobileOrdersPage } from './mobile-orders-page.ts';
export { MobileShell } from './mobile-shell.ts';
export { NoticeDialog } from './notice-dialog.ts';
export { OrderTicket } from './order-ticket.ts';
export { OrderDetailPage, OrdersPage } from './orders-page.ts';
export { PageModel } from './page-model.ts';
export { PasswordPage } from './password-page.ts';
export { ProfilePage } from './profile-page.ts';
export { RegisterPage } from './register-page.ts';
export { ResetPage } from './reset-page.ts';
export { SecurityPage } from './security-page.ts';
export { type Chrome, Shell } from './shell.ts';
export {
  MySmartPlansPage,
  type SmartFigures,
  SmartListPage,
  SmartPlanPage,
  SmartProductPage,
} from './smart-pages.ts';
export { type Figures, SwapPage } from './swap-page.ts';
export { TransactionsPage } from './transactions-page.ts';
export { type Photo, VerificationPage } from './verification-page.ts';
export { WalletPage } from './wallet-page.ts';
export { WalletRecordsPage } from './wallet-records-page.ts';
export { WithdrawPage } from './withdraw-page.ts';
