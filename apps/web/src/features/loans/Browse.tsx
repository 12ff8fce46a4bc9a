import type { LoanLimit, LoanProductsData } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { minorOf } from '../../app/money.ts';
import { Empty } from '../../ui/PageState.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { KycGate, LoanPage, useLoanFormat } from './parts.tsx';
import { loanQueries } from './queries.ts';

type Product = LoanProductsData['products'][number];

/** The rule that gives my limit, in words: why it is what it is, and the next step (or that none is left). */
function useLimitWords(limit: LoanLimit): { why: string; next: string | null } {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const { rule } = limit;
  const words = {
    base: f.percent(rule.baseShare),
    step: f.percent(rule.stepShare),
    max: f.percent(rule.maxShare),
    days: f.days(rule.minLoanDays),
  };
  if (limit.kycState !== 'verified') return { why: t('loan.limit.unverified', words), next: null };
  const why = [
    t('loan.limit.because', { ...words, counted: f.count(limit.counted) }),
    limit.overdue > 0 ? t('loan.limit.becauseOverdue', { overdue: f.count(limit.overdue) }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const { next } = limit;
  if (next === null)
    return { why, next: t(limit.share === rule.maxShare ? 'loan.limit.top' : 'loan.limit.noStep') };
  const share = f.percent(next.share);
  return {
    why,
    next:
      next.loans === 1
        ? t('loan.limit.next', { share, days: words.days })
        : t('loan.limit.nextMany', { share, days: words.days, loans: f.count(next.loans) }),
  };
}

/** My limit: the share of each product's maximum open to me, the rule that gives it and the next step. */
export function LimitCard({ limit, score = true }: { limit: LoanLimit; score?: boolean }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const words = useLimitWords(limit);
  return (
    <section
      className="card product-card loan-limit"
      aria-labelledby="loan-limit-title"
      data-testid="loan-limit"
    >
      <h2 id="loan-limit-title">{t('loan.limit.title')}</h2>
      <p className="loan-limit-share" data-value={limit.share}>
        {limit.kycState === 'verified'
          ? t('loan.limit.share', { share: f.percent(limit.share) })
          : t('loan.limit.none')}
      </p>
      <h3>{t('loan.limit.ruleTitle')}</h3>
      <p data-testid="loan-limit-why">{words.why}</p>
      {words.next ? (
        <p className="loan-limit-next" data-testid="loan-limit-next" data-value={limit.next?.share ?? ''}>
          {words.next}
        </p>
      ) : null}
      {score ? (
        <p className="loan-score">
          <meter min={0} max={limit.maxScore} value={limit.score} aria-labelledby="loan-score-label" />
          <span id="loan-score-label">
            {t('loan.limit.score', { score: f.count(limit.score), max: f.count(limit.maxScore) })}
          </span>
        </p>
      ) : null}
      {limit.openLoanId !== null ? (
        <p className="notice">
          {t('loan.limit.open')} <Link to={`/loan/${limit.openLoanId}`}>{t('loan.limit.seeOpen')}</Link>
        </p>
      ) : null}
    </section>
  );
}

/** Why a product cannot be borrowed now, or null when it can. */
function whyNot(product: Product, limit: LoanLimit): string | null {
  if (limit.kycState !== 'verified') return 'kyc';
  if (limit.openLoanId !== null) return 'open';
  if (!product.available) return 'pool';
  const mine = minorOf(product.myLimit, product.asset) ?? 0n;
  const min = minorOf(product.minAmount, product.asset) ?? 0n;
  return mine < min || mine <= 0n ? 'limit' : null;
}

export function useProductFacts(product: Product): Fact[] {
  const { t } = useTranslation();
  const f = useLoanFormat();
  return [
    {
      name: 'range',
      label: t('loan.fact.range'),
      value: `${product.minAmount}-${product.maxAmount}`,
      shown: t('loan.range', {
        minimum: f.exact(product.minAmount, product.asset),
        maximum: f.exact(product.maxAmount, product.asset),
      }),
    },
    {
      name: 'myLimit',
      label: t('loan.fact.myLimit'),
      value: product.myLimit,
      shown: f.exact(product.myLimit, product.asset),
    },
    {
      name: 'terms',
      label: t('loan.fact.terms'),
      value: product.terms.join(','),
      shown: product.terms.map((d) => f.days(d)).join(' · '),
    },
    {
      name: 'dailyRate',
      label: t('loan.fact.dailyRate'),
      value: product.dailyRate,
      shown: f.rate(product.dailyRate),
    },
    {
      // Beside the daily rate: each term's APR, as the sheet states it.
      name: 'apr',
      long: true,
      label: t('loan.sheet.apr'),
      value: product.aprs.map((a) => `${a.termDays}:${a.apr}`).join(','),
      shown: product.aprs
        .map((a) => t('loan.fact.aprOfTerm', { apr: f.apr(a.apr), days: f.days(a.termDays) }))
        .join(' · '),
    },
    {
      name: 'interestFreeDays',
      label: t('loan.fact.interestFree'),
      value: String(product.interestFreeDays),
      shown: f.days(product.interestFreeDays),
    },
    {
      name: 'late',
      long: true,
      label: t('loan.fact.late'),
      value: product.lateDailyRate,
      shown: t('loan.lateRule', { rate: f.rate(product.lateDailyRate), cap: f.rate(product.lateCapRate) }),
    },
  ];
}

function ProductCard({ product, limit }: { product: Product; limit: LoanLimit }) {
  const { t } = useTranslation();
  const facts = useProductFacts(product);
  const why = whyNot(product, limit);
  const headingId = `loan-product-${product.id}`;
  const whyId = `${headingId}-why`;
  return (
    <li className="card product-card loan-card" data-product={product.id} aria-labelledby={headingId}>
      <div className="product-card-head">
        <h3 id={headingId}>{product.name}</h3>
        <span className="loan-chip product-chip">{product.asset}</span>
      </div>
      <Facts facts={facts} />
      {why ? (
        <p className="small muted" id={whyId} data-testid="why-not">
          {t(`loan.whyNot.${why}`)}
        </p>
      ) : null}
      {why ? null : (
        <Link
          className="button primary block"
          to={`/loan/borrow/${product.id}`}
          aria-describedby={headingId}
          data-testid="borrow"
        >
          {t('loan.card.borrow')}
        </Link>
      )}
    </li>
  );
}

/** The loans tab (/loan): my limit and what raises it, then the products. */
export default function Browse() {
  const { t } = useTranslation();
  return <LoanPage title={t('title.loan')}>{(userId) => <BrowseBody userId={userId} />}</LoanPage>;
}

function BrowseBody({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const query = useQuery(loanQueries.products(userId));
  if (!query.isSuccess) return <QueryState query={query} />;
  const { limit, products } = query.data;
  return (
    <div className="product-stack">
      <p className="muted product-intro">{t('loan.intro')}</p>
      {limit.kycState !== 'verified' ? <KycGate state={limit.kycState} /> : null}
      <LimitCard limit={limit} />
      <section aria-labelledby="loan-products-title" className="product-stack">
        <h2 id="loan-products-title">{t('loan.products')}</h2>
        {products.length === 0 ? (
          <Empty text={t('loan.noProducts')} />
        ) : (
          <ul className="product-grid" data-testid="loan-products">
            {products.map((product) => (
              <ProductCard key={product.id} product={product} limit={limit} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
