import { adminCalls, type LoanPool, type LoanProduct } from '@swx/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { allowed, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, plain } from '../DataTable.tsx';
import { Facts } from '../Facts.tsx';
import { Pending } from '../Field.tsx';
import { fill } from '../text.ts';
import { LoanProductForm } from './LoanProductForm.tsx';
import {
  lateText,
  Money,
  rateText,
  statusText,
  termsText,
  useLoanProducts,
  useLoanText,
} from './LoanProducts.tsx';

/** A product's terms as facts (what staff who may not change them read). */
function Terms({ product: p }: { product: LoanProduct }) {
  const t = useLoanText();
  return (
    <Facts
      testId="loan-terms"
      rows={[
        [t.asset, p.asset],
        [t.amounts, <Amount key="a" value={`${plain(p.minAmount)} – ${plain(p.maxAmount)} ${p.asset}`} />],
        [
          t.terms,
          <span key="t" dir="ltr">
            {termsText(p)}
          </span>,
        ],
        [t.rate, rateText(t, p)],
        [t.interestFree, String(p.interestFreeDays)],
        [t.late, lateText(t, p)],
        [t.status, statusText(t, p)],
      ]}
    />
  );
}

/** The lending pool of the product's asset: what it holds, lent out, earned and still to accrue. */
export function PoolFacts({ pool, testId }: { pool: LoanPool; testId?: string }) {
  const t = useLoanText();
  const asset = pool.asset;
  return (
    <Facts
      testId={testId}
      rows={[
        [t.available, <Money key="a" value={pool.available} asset={asset} />],
        [t.lent, <Money key="l" value={pool.lent} asset={asset} />],
        [t.unearned, <Money key="u" value={pool.unearned} asset={asset} />],
        [t.income, <Money key="i" value={pool.income} asset={asset} />],
        [t.openLoans, String(pool.openLoans)],
        [t.overdueLoans, String(pool.overdueLoans)],
      ]}
    />
  );
}

/** /admin/loans/products/new: the create form (admins); a created product opens its own page. */
export function NewLoanProduct() {
  const { staff } = useBackOffice();
  const t = useLoanText();
  const navigate = useNavigate();
  return (
    <section className="panel" aria-labelledby="loan-new-heading">
      <Link className="back" to="/loans/products">
        {t.backToProducts}
      </Link>
      <h2 id="loan-new-heading" tabIndex={-1}>
        {t.createHeading}
      </h2>
      {allowed(staff, adminCalls.createLoanProduct) ? (
        <LoanProductForm
          labelledBy="loan-new-heading"
          onSaved={(saved) =>
            navigate(`/loans/products/${saved.product.id}`, {
              state: { done: fill(t.created, { name: saved.product.name }) },
            })
          }
          onCancel={() => navigate('/loans/products')}
        />
      ) : (
        <p className="alert" role="alert">
          {t.readOnly}
        </p>
      )}
    </section>
  );
}

/**
 * /admin/loans/products/:id: a product's status, its asset's lending pool, and its terms: the
 * edit form for admins, the facts for everyone else.
 */
export function LoanProductPage() {
  const { text, staff } = useBackOffice();
  const t = useLoanText();
  const id = Number(useParams().id);
  const location = useLocation();
  const query = useLoanProducts();
  const item = query.data?.find((r) => r.product.id === id);
  const heading = useRef<HTMLHeadingElement>(null);
  const [done, setDone] = useState<string>(() => (location.state as { done?: string } | null)?.done ?? '');
  const loaded = item !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  const back = (
    <Link className="back" to="/loans/products">
      {t.backToProducts}
    </Link>
  );
  if (!item)
    return (
      <section className="panel">
        {back}
        <Pending
          failure={
            query.isError
              ? failureMessage(query.error, text.error.generic)
              : query.data || !Number.isSafeInteger(id)
                ? t.notFound
                : ''
          }
          loading={text.loading}
        />
      </section>
    );
  const { product, pool } = item;
  const mayEdit = allowed(staff, adminCalls.updateLoanProduct);
  return (
    <section className="panel" aria-labelledby="loan-product-heading">
      {back}
      <h2 id="loan-product-heading" ref={heading} tabIndex={-1}>
        {fill(t.productHeading, { name: product.name, id: product.id })}
      </h2>
      <p>
        <strong
          className={product.enabled && !product.available ? 'overdue' : undefined}
          data-testid="loan-status"
        >
          {statusText(t, product)}
        </strong>
      </p>
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      <section className="loan-section" aria-labelledby="loan-pool-heading">
        <h3 id="loan-pool-heading">{fill(t.poolOfProduct, { asset: product.asset })}</h3>
        <PoolFacts pool={pool} testId="loan-product-pool" />
        <Link to="/loans/pools">{t.fundLink}</Link>
      </section>
      {mayEdit ? (
        <LoanProductForm
          key={product.id}
          product={product}
          onSaved={(saved) => {
            setDone(fill(t.saved, { name: saved.product.name }));
            heading.current?.focus();
          }}
        />
      ) : (
        <section className="loan-section" aria-labelledby="loan-terms-heading">
          <h3 id="loan-terms-heading">{t.termsHeading}</h3>
          <p className="muted">{t.readOnly}</p>
          <Terms product={product} />
        </section>
      )}
    </section>
  );
}
