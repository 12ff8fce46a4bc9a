import { Code, type LoanQuote } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { idOf } from '../../app/pathId.ts';
import { announce } from '../../ui/announce.ts';
import { AmountField, amountMessage, checkAmount, LiveQuote, useSettled } from '../../ui/product/Amount.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { Missing, QueryState } from '../../ui/product/ProductPage.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { uploadFile } from '../uploads/upload.ts';
import { KycGate, LoanPage, Refusal, useLoanFormat } from './parts.tsx';
import { loanQueries } from './queries.ts';
import { type SignatureHandle, SignaturePad } from './SignaturePad.tsx';

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

/**
 * The agreement to sign, its clauses generated from the quote's figures; signed by drawing; then the
 * application of exactly that quote. A quote that ran out (10032) is asked again and the customer
 * applies with the figures shown.
 */
function Agreement({ first, renew }: { first: LoanQuote; renew: () => Promise<LoanQuote> }) {
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
  // One id per application attempt: a retry after a lost answer applies once; a new quote is a new attempt.
  const { quote, renewed, busy, failure, submit } = useQuoteCommit({
    first,
    commit: async (q, requestId) => {
      const png = await pad.current?.toPng();
      if (!png) {
        setSigned(false);
        return null;
      }
      const upload = await uploadFile('loan_signature', png, () => undefined, new AbortController().signal);
      return callApi('loan', {
        body: { quoteId: q.quoteId, requestId, signature: upload.id, acceptAgreement: true },
      });
    },
    renew,
    onDone: (loan) => {
      if (!loan) return;
      void queryClient.invalidateQueries({ queryKey: loanQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      announce(t('loan.apply.done', { amount: f.exact(loan.amount, loan.asset) }));
      navigate(`/loan/${loan.id}`);
    },
    renewedText: t('loan.apply.renewed'),
  });
  const apply = () => {
    setTried(true);
    if (!accepted) {
      acceptInput.current?.focus();
      return;
    }
    if (!signed) {
      pad.current?.focus();
      return;
    }
    void submit();
  };
  const title = t('loan.agreement.title');
  const acceptError = tried && !accepted ? t('loan.apply.acceptRequired') : undefined;
  const signError = tried && !signed ? t('loan.apply.signRequired') : undefined;
  return (
    <section
      className="card product-card loan-agreement"
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
        className="product-form loan-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div className="loan-accept">
          <label htmlFor={acceptId} className="loan-check product-option">
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
  const asset = product?.asset ?? 'USDT';
  const check = checkAmount(typed, asset, { min: product?.minAmount, max: product?.myLimit });
  const amountError = product
    ? amountMessage(check, {
        invalid: t('loan.amount.invalid', { asset }),
        range: t('loan.refusal.amountRange', {
          minimum: f.exact(product.minAmount, asset),
          maximum: f.exact(product.maxAmount, asset),
          limit: f.exact(product.myLimit, asset),
        }),
      })
    : undefined;
  const wanted = typed.trim() !== '' && amountError === undefined ? `${check.amount}|${termDays}` : '';
  const settled = useSettled(wanted);
  const [settledAmount = '', settledTerm = '0'] = settled.split('|');
  const quote = useQuery({
    ...loanQueries.quote(userId, productId, settledAmount, Number(settledTerm)),
    enabled: product !== undefined && settled !== '' && settled === wanted,
  });
  if (!products.isSuccess) return <QueryState query={products} />;
  if (!product)
    return (
      <Missing name="loan" text={t('loan.borrow.notFound')} to="/loan" back={t('loan.borrow.toProducts')} />
    );
  const { limit } = products.data;
  if (limit.kycState !== 'verified') return <KycGate state={limit.kycState} />;
  const current = quote.data && settled === wanted ? quote.data : undefined;
  const quoting = wanted !== '' && !current && !quote.isError;
  return (
    <div className="product-stack loan-stack">
      <section
        className="card product-card loan-borrow"
        aria-labelledby="loan-borrow-title"
        data-testid="loan-borrow"
      >
        <div className="product-card-head">
          <h2 id="loan-borrow-title">{product.name}</h2>
          <span className="loan-chip product-chip">{asset}</span>
        </div>
        <form className="product-form loan-form" noValidate onSubmit={(event) => event.preventDefault()}>
          <AmountField
            label={t('loan.amount.label', { asset })}
            value={typed}
            onChange={setTyped}
            hint={[
              t('loan.amount.limit', { amount: f.exact(product.myLimit, asset) }),
              t('loan.range', {
                minimum: f.exact(product.minAmount, asset),
                maximum: f.exact(product.maxAmount, asset),
              }),
            ]}
            error={amountError}
            max={{
              value: product.myLimit,
              asset,
              text: t('loan.amount.max'),
              label: t('loan.amount.maxLabel', { amount: f.exact(product.myLimit, asset) }),
            }}
          />
          <fieldset className="loan-terms product-choice">
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
        <LiveQuote
          className="loan-live"
          testId="loan-quote"
          title={t('loan.sheet.title')}
          note={<p className="small muted">{t('loan.sheet.note')}</p>}
          busy={quoting}
          idle={wanted === '' ? t('loan.sheet.enter') : null}
          refusal={
            quote.isError && settled === wanted ? (
              quote.error instanceof ApiFailure && quote.error.code === Code.USER_NOT_AUTHENTICATED ? (
                <KycGate />
              ) : (
                <Refusal error={quote.error} />
              )
            ) : null
          }
          ready={current !== undefined}
        >
          {current ? <Sheet quote={current} /> : null}
        </LiveQuote>
      </section>
      {current ? (
        <Agreement
          key={`${current.amount}|${current.termDays}`}
          first={current}
          renew={async () => {
            const next = await quote.refetch();
            return next.data ?? current;
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
