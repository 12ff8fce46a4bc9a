import { Code, type LoanProductsData, type LoanQuote } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { idOf } from '../../app/pathId.ts';
import { announce } from '../../ui/announce.ts';
import { AmountField, amountMessage, checkAmount, LiveQuote, useSettled } from '../../ui/product/Amount.tsx';
import { Choice } from '../../ui/product/Choice.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { Missing, QueryState } from '../../ui/product/ProductPage.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { uploadFile } from '../uploads/upload.ts';
import { useTermFacts } from './facts.ts';
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
  const terms = useTermFacts(quote);
  return [
    terms.amount,
    terms.termDays,
    terms.dailyRate,
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
    terms.totalInterest,
    terms.totalPayable,
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
    terms.apr,
    terms.late,
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
 * The application of exactly the quote shown, signed with the pad's drawing (uploaded first; none
 * drawn: `onUnsigned`, nothing applied). One id per application attempt: a retry after a lost
 * answer applies once; a new quote is a new attempt. Done, the loan's screen.
 */
function useApply(
  first: LoanQuote,
  renew: () => Promise<LoanQuote>,
  pad: RefObject<SignatureHandle | null>,
  onUnsigned: () => void,
) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useQuoteCommit({
    first,
    commit: async (q, requestId) => {
      const png = await pad.current?.toPng();
      if (!png) {
        onUnsigned();
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
}

/** The agreement's clauses, in a box that scrolls (in English, as it is signed). */
function AgreementText({ lines }: { lines: string[] }) {
  const { t } = useTranslation();
  const title = t('loan.agreement.title');
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolled agreement must be reachable by keyboard
    <section className="loan-agreement-text" lang="en" dir="ltr" aria-label={title} tabIndex={0}>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the clauses are fixed for this quote
        <p key={index}>{line}</p>
      ))}
    </section>
  );
}

/** "I accept the agreement", with its error once the customer tried to apply without it. */
function AcceptBox({
  input,
  checked,
  error,
  onChange,
}: {
  input: RefObject<HTMLInputElement | null>;
  checked: boolean;
  error: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="loan-accept">
      <label htmlFor={id} className="loan-check product-option">
        <input
          ref={input}
          id={id}
          type="checkbox"
          name="acceptAgreement"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{t('loan.agreement.accept')}</span>
      </label>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The agreement to sign, its clauses generated from the quote's figures; signed by drawing; then the
 * application of exactly that quote. A quote that ran out (10032) is asked again and the customer
 * applies with the figures shown.
 */
function Agreement({ first, renew }: { first: LoanQuote; renew: () => Promise<LoanQuote> }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const pad = useRef<SignatureHandle>(null);
  const acceptInput = useRef<HTMLInputElement>(null);
  const [accepted, setAccepted] = useState(false);
  const [signed, setSigned] = useState(false);
  const [tried, setTried] = useState(false);
  const { quote, renewed, busy, failure, submit } = useApply(first, renew, pad, () => setSigned(false));
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
  return (
    <section
      className="card product-card loan-agreement"
      aria-labelledby="loan-agreement-title"
      data-testid="loan-agreement"
    >
      <h2 id="loan-agreement-title">{t('loan.agreement.title')}</h2>
      <p className="small muted">{t('loan.agreement.note')}</p>
      <AgreementText lines={quote.agreement} />
      <form
        className="product-form loan-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <AcceptBox
          input={acceptInput}
          checked={accepted}
          error={tried && !accepted ? t('loan.apply.acceptRequired') : undefined}
          onChange={setAccepted}
        />
        <SignaturePad
          handle={pad}
          onChange={setSigned}
          error={tried && !signed ? t('loan.apply.signRequired') : undefined}
        />
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

type Product = LoanProductsData['products'][number];

/**
 * The information sheet of the amount typed and the term chosen, asked for once they rest and are
 * in the product's range: `wanted` is what is asked, `current` the quote of exactly that.
 */
function useSheetQuote(userId: number, product: Product, typed: string, termDays: number) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const { asset } = product;
  const check = checkAmount(typed, asset, { min: product.minAmount, max: product.myLimit });
  const amountError = amountMessage(check, {
    invalid: t('loan.amount.invalid', { asset }),
    range: t('loan.refusal.amountRange', {
      minimum: f.exact(product.minAmount, asset),
      maximum: f.exact(product.maxAmount, asset),
      limit: f.exact(product.myLimit, asset),
    }),
  });
  const wanted = typed.trim() !== '' && amountError === undefined ? `${check.amount}|${termDays}` : '';
  const settled = useSettled(wanted);
  const [settledAmount = '', settledTerm = '0'] = settled.split('|');
  const quote = useQuery({
    ...loanQueries.quote(userId, product.id, settledAmount, Number(settledTerm)),
    enabled: settled !== '' && settled === wanted,
  });
  const current = quote.data && settled === wanted ? quote.data : undefined;
  const refused = quote.isError && settled === wanted ? quote.error : null;
  const quoting = wanted !== '' && !current && !quote.isError;
  return { amountError, wanted, quote, current, refused, quoting };
}

/** The product's terms as radio choices, in days. */
function TermChoice({
  terms,
  value,
  onChange,
}: {
  terms: number[];
  value: number;
  onChange: (days: number) => void;
}) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  return (
    <Choice
      legend={t('loan.term.label')}
      name="termDays"
      value={value}
      options={terms.map((days) => ({ value: days, label: f.days(days) }))}
      onChange={onChange}
      pills
      className="loan-terms"
      optionClassName="loan-term"
    />
  );
}

/** The live information sheet: what to do first, the refusal (identity first: the gate), or the sheet. */
function SheetQuote({
  wanted,
  current,
  refused,
  quoting,
}: {
  wanted: string;
  current: LoanQuote | undefined;
  refused: Error | null;
  quoting: boolean;
}) {
  const { t } = useTranslation();
  return (
    <LiveQuote
      className="loan-live"
      testId="loan-quote"
      title={t('loan.sheet.title')}
      note={<p className="small muted">{t('loan.sheet.note')}</p>}
      busy={quoting}
      idle={wanted === '' ? t('loan.sheet.enter') : null}
      refusal={
        refused ? (
          refused instanceof ApiFailure && refused.code === Code.USER_NOT_AUTHENTICATED ? (
            <KycGate />
          ) : (
            <Refusal error={refused} />
          )
        ) : null
      }
      ready={current !== undefined}
    >
      {current ? <Sheet quote={current} /> : null}
    </LiveQuote>
  );
}

/** Amount and term with the live information sheet, then the agreement of the quote shown. */
function BorrowSteps({ userId, product }: { userId: number; product: Product }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState<number | null>(null);
  const termDays = term ?? product.terms[0] ?? 0;
  const { asset } = product;
  const { amountError, wanted, quote, current, refused, quoting } = useSheetQuote(
    userId,
    product,
    typed,
    termDays,
  );
  return (
    <div className="product-stack">
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
          <TermChoice terms={product.terms} value={termDays} onChange={setTerm} />
        </form>
        <SheetQuote wanted={wanted} current={current} refused={refused} quoting={quoting} />
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

/** The product asked for, once the customer's identity is verified (else the gate). */
function BorrowForm({ userId, productId }: { userId: number; productId: number }) {
  const products = useQuery(loanQueries.products(userId));
  const product = products.data?.products.find((p) => p.id === productId);
  if (!products.isSuccess) return <QueryState query={products} />;
  if (!product) return <NoSuchProduct />;
  const { limit } = products.data;
  if (limit.kycState !== 'verified') return <KycGate state={limit.kycState} />;
  return <BorrowSteps userId={userId} product={product} />;
}

function NoSuchProduct() {
  const { t } = useTranslation();
  return (
    <Missing name="loan" text={t('loan.borrow.notFound')} to="/loan" back={t('loan.borrow.toProducts')} />
  );
}

/** Borrow (/loan/borrow/:productId): amount and term with the live information sheet, the agreement, the signature. */
export default function Borrow() {
  const { t } = useTranslation();
  const { productId } = useParams();
  const id = idOf(productId);
  return (
    <LoanPage title={t('title.loanBorrow')}>
      {(userId) => (id === null ? <NoSuchProduct /> : <BorrowForm userId={userId} productId={id} />)}
    </LoanPage>
  );
}
