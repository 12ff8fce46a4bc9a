import { amountInput, Code, type LoanQuote } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { minorOf } from '../../app/money.ts';
import { idOf } from '../../app/pathId.ts';
import { newRequestId } from '../../app/requestId.ts';
import { announce } from '../../ui/announce.ts';
import { normalizeDecimal } from '../../ui/decimalInput.ts';
import { Field } from '../../ui/Field.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { uploadFile } from '../uploads/upload.ts';
import { type Fact, Facts, KycGate, LoanPage, Refusal, useLoanFormat } from './parts.tsx';
import { loanQueries } from './queries.ts';
import { type SignatureHandle, SignaturePad } from './SignaturePad.tsx';

/** How long amount and term rest before they are quoted. */
const DEBOUNCE_MS = 400;

function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The standard information of the disclosure (the EU's consumer-credit information sheet), every
 * figure exactly as the quote gave it: what the loan applies.
 */
export function useSheetFacts(quote: LoanQuote): Fact[] {
  const { t } = useTranslation();
  const f = useLoanFormat();
  return [
    {
      name: 'amount',
      label: t('loan.sheet.amount'),
      value: quote.amount,
      shown: f.exact(quote.amount, quote.asset),
    },
    {
      name: 'termDays',
      label: t('loan.sheet.term'),
      value: String(quote.termDays),
      shown: f.days(quote.termDays),
    },
    {
      name: 'dailyRate',
      label: t('loan.sheet.dailyRate'),
      value: quote.dailyRate,
      shown: f.rate(quote.dailyRate),
    },
    {
      name: 'interestFreeDays',
      long: true,
      label: t('loan.sheet.interestFree'),
      value: String(quote.interestFreeDays),
      shown: t('loan.sheet.interestFreeValue', {
        days: f.days(quote.interestFreeDays),
        date: f.day(quote.interestFrom),
      }),
    },
    {
      name: 'interestDays',
      label: t('loan.sheet.interestDays'),
      value: String(quote.interestDays),
      shown: f.days(quote.interestDays),
    },
    {
      name: 'totalInterest',
      label: t('loan.sheet.totalInterest'),
      value: quote.totalInterest,
      shown: f.exact(quote.totalInterest, quote.asset),
    },
    {
      name: 'totalPayable',
      label: t('loan.sheet.totalPayable'),
      value: quote.totalPayable,
      shown: f.exact(quote.totalPayable, quote.asset),
    },
    {
      name: 'repayment',
      long: true,
      label: t('loan.sheet.repayment'),
      value: `${quote.dueDate} ${quote.repaymentAmount}`,
      shown: t('loan.sheet.repaymentValue', {
        amount: f.exact(quote.repaymentAmount, quote.asset),
        date: f.day(quote.dueDate),
      }),
    },
    { name: 'apr', label: t('loan.sheet.apr'), value: quote.apr, shown: f.apr(quote.apr) },
    {
      name: 'late',
      long: true,
      label: t('loan.sheet.late'),
      value: `${quote.lateDailyRate} ${quote.lateCostCap}`,
      shown: t('loan.sheet.lateValue', {
        rate: f.rate(quote.lateDailyRate),
        cap: f.exact(quote.lateCostCap, quote.asset),
      }),
    },
    {
      name: 'earlyRepayment',
      long: true,
      label: t('loan.sheet.early'),
      value: quote.earlyRepaymentFee,
      shown: t('loan.sheet.earlyValue', { fee: f.exact(quote.earlyRepaymentFee, quote.asset) }),
    },
    {
      name: 'withdrawal',
      long: true,
      label: t('loan.sheet.withdrawal'),
      value: String(quote.withdrawalDays),
      shown: t('loan.sheet.withdrawalValue', { days: f.days(quote.withdrawalDays) }),
    },
  ];
}

function Sheet({ quote }: { quote: LoanQuote }) {
  const facts = useSheetFacts(quote);
  return <Facts facts={facts} testId="loan-sheet" className="loan-sheet" />;
}

/** The agreement to sign, its clauses generated from the quote's figures; signed by drawing; then the application. */
function Agreement({ quote, onExpired }: { quote: LoanQuote; onExpired: () => Promise<void> }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pad = useRef<SignatureHandle>(null);
  const acceptId = useId();
  const acceptInput = useRef<HTMLInputElement>(null);
  const [accepted, setAccepted] = useState(false);
  const [signed, setSigned] = useState(false);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [renewed, setRenewed] = useState(false);
  // One id per application attempt: a retry after a lost answer applies once.
  const [requestId] = useState(newRequestId);
  const apply = async () => {
    setTried(true);
    setFailure(null);
    if (!accepted) {
      acceptInput.current?.focus();
      return;
    }
    if (!signed) {
      pad.current?.focus();
      return;
    }
    if (busy) return;
    setBusy(true);
    try {
      const png = await pad.current?.toPng();
      if (!png) {
        setSigned(false);
        return;
      }
      const upload = await uploadFile('loan_signature', png, () => undefined, new AbortController().signal);
      const loan = await callApi('loan', {
        body: { quoteId: quote.quoteId, requestId, signature: upload.id, acceptAgreement: true },
      });
      void queryClient.invalidateQueries({ queryKey: loanQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      announce(t('loan.apply.done', { amount: f.exact(loan.amount, loan.asset) }));
      navigate(`/loan/${loan.id}`);
    } catch (error) {
      if (error instanceof ApiFailure && error.code === Code.PRICE_CHANGED) {
        await onExpired();
        setRenewed(true);
        announce(t('loan.apply.renewed'));
      } else setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const title = t('loan.agreement.title');
  const acceptError = tried && !accepted ? t('loan.apply.acceptRequired') : undefined;
  const signError = tried && !signed ? t('loan.apply.signRequired') : undefined;
  return (
    <section
      className="card loan-agreement"
      aria-labelledby="loan-agreement-title"
      data-testid="loan-agreement"
    >
      <h2 id="loan-agreement-title">{t('loan.agreement.title')}</h2>
      <p className="small muted">{t('loan.agreement.note')}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolled agreement must be reachable by keyboard */}
      <section className="loan-agreement-text" lang="en" dir="ltr" aria-label={title} tabIndex={0}>
        {quote.agreement.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the clauses are fixed for this quote
          <p key={index}>{line}</p>
        ))}
      </section>
      <form
        className="loan-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
      >
        <div className="loan-accept">
          <label htmlFor={acceptId} className="loan-check">
            <input
              ref={acceptInput}
              id={acceptId}
              type="checkbox"
              name="acceptAgreement"
              checked={accepted}
              aria-invalid={acceptError ? true : undefined}
              aria-describedby={acceptError ? `${acceptId}-error` : undefined}
              onChange={(event) => setAccepted(event.target.checked)}
            />
            <span>{t('loan.agreement.accept')}</span>
          </label>
          {acceptError ? (
            <p id={`${acceptId}-error`} className="field-error">
              {acceptError}
            </p>
          ) : null}
        </div>
        <SignaturePad handle={pad} onChange={setSigned} error={signError} />
        {renewed ? (
          <p className="notice" data-testid="requote">
            {t('loan.apply.renewed')}
          </p>
        ) : null}
        {failure ? <Refusal error={failure} /> : null}
        <button type="submit" className="button primary large block" data-testid="loan-apply" disabled={busy}>
          {busy
            ? t('loan.apply.sending')
            : t('loan.apply.submit', { amount: f.exact(quote.amount, quote.asset) })}
        </button>
        <p className="small muted">{t('loan.apply.review')}</p>
      </form>
    </section>
  );
}

function BorrowForm({ userId, productId }: { userId: number; productId: number }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const products = useQuery(loanQueries.products(userId));
  const product = products.data?.products.find((p) => p.id === productId);
  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState<number | null>(null);
  const termDays = term ?? product?.terms[0] ?? 0;
  const amount = normalizeDecimal(typed);
  const asset = product?.asset ?? 'USDT';
  const minor = amountInput.safeParse(amount).success ? minorOf(amount, asset) : null;
  const low = product ? minorOf(product.minAmount, asset) : null;
  const high = product ? minorOf(product.myLimit, asset) : null;
  const amountError =
    !product || typed.trim() === ''
      ? undefined
      : minor === null || minor <= 0n
        ? t('loan.amount.invalid', { asset })
        : (low !== null && minor < low) || (high !== null && minor > high)
          ? t('loan.refusal.amountRange', {
              minimum: f.exact(product.minAmount, asset),
              maximum: f.exact(product.maxAmount, asset),
              limit: f.exact(product.myLimit, asset),
            })
          : undefined;
  const wanted = typed.trim() !== '' && amountError === undefined ? `${amount}|${termDays}` : '';
  const settled = useSettled(wanted);
  const [settledAmount = '', settledTerm = '0'] = settled.split('|');
  const quote = useQuery({
    ...loanQueries.quote(userId, productId, settledAmount, Number(settledTerm)),
    enabled: product !== undefined && settled !== '' && settled === wanted,
  });
  if (products.isPending) return <Loading />;
  if (products.isError)
    return <Failed message={products.error.message} onRetry={() => void products.refetch()} />;
  if (!product)
    return (
      <section className="card loan-missing">
        <p>{t('loan.borrow.notFound')}</p>
        <Link to="/loan">{t('loan.borrow.toProducts')}</Link>
      </section>
    );
  const { limit } = products.data;
  if (limit.kycState !== 'verified') return <KycGate state={limit.kycState} />;
  const current = quote.data && settled === wanted ? quote.data : undefined;
  const quoting = wanted !== '' && !current && !quote.isError;
  const hint = [
    t('loan.amount.limit', { amount: f.exact(product.myLimit, asset) }),
    t('loan.range', {
      minimum: f.exact(product.minAmount, asset),
      maximum: f.exact(product.maxAmount, asset),
    }),
  ].join(' · ');
  return (
    <div className="loan-stack">
      <section className="card loan-borrow" aria-labelledby="loan-borrow-title" data-testid="loan-borrow">
        <div className="loan-card-head">
          <h2 id="loan-borrow-title">{product.name}</h2>
          <span className="loan-chip">{asset}</span>
        </div>
        <form className="loan-form" noValidate onSubmit={(event) => event.preventDefault()}>
          <Field
            label={t('loan.amount.label', { asset })}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            dir="ltr"
            value={typed}
            hint={hint}
            error={amountError}
            onChange={(event) => setTyped(event.target.value)}
          >
            {(high ?? 0n) > 0n ? (
              <button type="button" className="button ghost small" onClick={() => setTyped(product.myLimit)}>
                {t('loan.amount.max')}
                <span className="visually-hidden">
                  {' '}
                  {t('loan.amount.maxLabel', { amount: f.exact(product.myLimit, asset) })}
                </span>
              </button>
            ) : null}
          </Field>
          <fieldset className="loan-terms">
            <legend>{t('loan.term.label')}</legend>
            <div className="loan-term-options">
              {product.terms.map((days) => (
                <label key={days} className="loan-term">
                  <input
                    type="radio"
                    name="termDays"
                    value={days}
                    checked={termDays === days}
                    onChange={() => setTerm(days)}
                  />
                  <span>{f.days(days)}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </form>
        <div className="loan-live" data-testid="loan-quote" aria-busy={quoting || undefined}>
          <h3>{t('loan.sheet.title')}</h3>
          <p className="small muted">{t('loan.sheet.note')}</p>
          {wanted === '' ? (
            <p className="muted small">{t('loan.sheet.enter')}</p>
          ) : quote.isError && settled === wanted ? (
            quote.error instanceof ApiFailure && quote.error.code === Code.USER_NOT_AUTHENTICATED ? (
              <KycGate />
            ) : (
              <Refusal error={quote.error} />
            )
          ) : current ? (
            <Sheet quote={current} />
          ) : (
            <Loading />
          )}
        </div>
      </section>
      {current ? (
        <Agreement
          key={`${current.amount}|${current.termDays}`}
          quote={current}
          onExpired={async () => {
            await quote.refetch();
          }}
        />
      ) : null}
    </div>
  );
}

/** Borrow (/loan/borrow/:productId): amount and term with the live information sheet, the agreement, the signature. */
export default function Borrow() {
  const { t } = useTranslation();
  const { productId } = useParams();
  const id = idOf(productId);
  return (
    <LoanPage title={t('title.loanBorrow')}>
      {(userId) =>
        id === null ? (
          <section className="card loan-missing">
            <p>{t('loan.borrow.notFound')}</p>
            <Link to="/loan">{t('loan.borrow.toProducts')}</Link>
          </section>
        ) : (
          <BorrowForm userId={userId} productId={id} />
        )
      }
    </LoanPage>
  );
}
