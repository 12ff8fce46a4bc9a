import { ASSET_SCALES, type Asset, Code, formatMinor, LOAN_STATES, type LoanState } from '@swx/contract';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useFigureFormat } from '../../app/figures.ts';
import { formatPercent } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { NeedsLogin } from '../../ui/AccountPage.tsx';
import { announce } from '../../ui/announce.ts';
import type { Tone } from '../../ui/product/Facts.tsx';
import { BookNotice, ProductPage } from '../../ui/product/ProductPage.tsx';
import { SectionNav } from '../../ui/SectionNav.tsx';
import { loanTexts } from './texts.ts';
import '../../ui/product/product.css';
import './loans.css';

/**
 * A loan screen in the product page (ui/product/), for a logged-in customer in the live book.
 * Loans are live-book only: in the demo book the screen says so and offers the book switch instead
 * (the server would answer 10043).
 */
export function LoanPage({
  title,
  nav = true,
  children,
}: {
  title: string;
  nav?: boolean;
  children: (userId: number) => ReactNode;
}) {
  return (
    <ProductPage name="loan" texts={loanTexts} title={title} nav={nav ? <LoanNav /> : null}>
      <LiveOnly>{children}</LiveOnly>
    </ProductPage>
  );
}

/**
 * The screen for a logged-in customer in the live book; in the demo book, the switch. Switched to
 * the live book here, the notice (and its switch's own status line) gives way to the loan screen:
 * the change is announced, since nothing else would say it.
 */
function LiveOnly({ children }: { children: (userId: number) => ReactNode }) {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const demo = useClientState((s) => s.virtual === 1);
  const wasDemo = useRef(demo);
  useEffect(() => {
    if (wasDemo.current && !demo) announce(`${t('account.switchedToLive')} ${t('loan.demo.switched')}`);
    wasDemo.current = demo;
  }, [demo, t]);
  return (
    <NeedsLogin>
      {demo ? (
        <BookNotice name="loan" title={t('loan.demo.title')} text={t('loan.demo.text')} />
      ) : user ? (
        children(user.id)
      ) : null}
    </NeedsLogin>
  );
}

/** Borrow, my loans, agreements, repayment, credit score: links, the current one marked. */
export function LoanNav() {
  const { t } = useTranslation();
  const links = [
    ['/loan', 'loan.nav.borrow'],
    ['/loan/records', 'title.loanRecords'],
    ['/profile/repayment', 'title.loanRepayment'],
    ['/profile/contract', 'title.loanContract'],
    ['/profile/credit', 'title.creditScore'],
  ] as const;
  return <SectionNav label={t('loan.nav.label')} links={links.map(([to, key]) => [to, t(key)] as const)} />;
}

/** The reader's formatters of loan figures. */
export function useLoanFormat() {
  const { t } = useTranslation();
  // Number and asset on one line too.
  const figures = useFigureFormat('\u00a0');
  const { language } = figures;
  return {
    ...figures,
    /** A daily rate as a percentage with every digit ("0.0005" → 0.05 %). */
    rate: (ratio: string) => `\u2066${formatPercent(language, ratio, { minimumFractionDigits: 2 })}\u2069`,
    /** A share ("0.75" → 75 %), as few decimals as it has. */
    percent: (ratio: string) => `\u2066${formatPercent(language, ratio)}\u2069`,
    /** The APR, already in percent with one decimal. */
    apr: (percent: string) =>
      `\u2066${formatPercent(language, percent, { alreadyPercent: true, minimumFractionDigits: 1 })}\u2069`,
    days: (count: number) => t('loan.days', { count }),
  };
}

export function decimalOf(minor: bigint, asset: Asset): string {
  return formatMinor(minor, ASSET_SCALES[asset]);
}

/** The tone of a loan's state or a repayment's (its words say it). */
export const STATE_TONES: Partial<Record<LoanState, Tone>> = {
  pending: 'caution',
  repaying: 'brand',
  repaid: 'success',
  withdrawn: 'success',
  expired: 'danger',
  rejected: 'danger',
};

/** A loan's state in words, with its own mark. */
export function StateWord({ state }: { state: LoanState }) {
  const { t } = useTranslation();
  return (
    <span
      className="loan-state product-chip"
      data-state={state}
      data-tone={STATE_TONES[state]}
      data-testid="loan-state"
    >
      {t(`loan.state.${state}`)}
    </span>
  );
}

export const isLoanState = (value: string): value is LoanState =>
  (LOAN_STATES as readonly string[]).includes(value);

/** Identity verification comes first (spec §5): what to do, and the way there. */
export function KycGate({ state }: { state?: string | undefined }) {
  const { t } = useTranslation();
  const pending = state === 'pending';
  return (
    <section className="card product-card loan-gate" data-testid="kyc-gate" aria-labelledby="loan-gate-title">
      <h2 id="loan-gate-title">{t('loan.gate.title')}</h2>
      <p>{pending ? t('loan.gate.pending') : t('loan.gate.text')}</p>
      {pending ? null : (
        <Link className="button primary" to="/profile/verification">
          {t('loan.gate.verify')}
        </Link>
      )}
    </section>
  );
}

/** What a refusal means for the customer, in their words, with what they can do about it. */
export function Refusal({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  if (!(error instanceof ApiFailure))
    return (
      <p className="form-error" role="alert">
        {t('state.error')}
      </p>
    );
  const data = (error.data ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  let message = error.message;
  let action: ReactNode = null;
  switch (error.code) {
    case Code.USER_NOT_AUTHENTICATED:
      message = t('loan.gate.text');
      action = <Link to="/profile/verification">{t('loan.gate.verify')}</Link>;
      break;
    case Code.WRONG_INVESTMENT_AMOUNT: {
      const asset = text('asset');
      if (asset && text('limit'))
        message = t('loan.refusal.amountRange', {
          minimum: f.exact(text('minimum'), asset),
          maximum: f.exact(text('maximum'), asset),
          limit: f.exact(text('limit'), asset),
        });
      else if (asset && text('maximum'))
        message = t('loan.refusal.atMost', { maximum: f.exact(text('maximum'), asset) });
      break;
    }
    case Code.LOAN_PERIOD_WRONG:
      message = text('withdrawalDays') ? t('loan.refusal.withdrawalOver') : t('loan.refusal.term');
      break;
    case Code.ALREADY_PURCHASED:
      message = t('loan.refusal.open');
      if (text('loanId')) action = <Link to={`/loan/${text('loanId')}`}>{t('loan.refusal.seeOpen')}</Link>;
      break;
    case Code.SOLD_OUT:
      message = text('reason') === 'pool' ? t('loan.refusal.pool') : t('loan.refusal.closed');
      break;
    case Code.INSUFFICIENT_BALANCE:
      message = t('loan.refusal.balance');
      action = <Link to="/profile/deposit">{t('loan.refusal.deposit')}</Link>;
      break;
    case Code.LIVE_BOOK_ONLY:
      message = t('loan.demo.title');
      break;
    case Code.RECEIVING_ADDRESS_MISSING:
      message = t('loan.refusal.address');
      break;
    case Code.PRICE_CHANGED:
      message = t('loan.refusal.changed');
      break;
    case Code.TRANSACTION_ALREADY_USED:
      message = t('loan.refusal.txUsed');
      break;
    default:
      break;
  }
  return (
    <div className="form-error loan-refusal product-refusal" role="alert" data-code={error.code}>
      <p>{message}</p>
      {action ? <p>{action}</p> : null}
    </div>
  );
}
