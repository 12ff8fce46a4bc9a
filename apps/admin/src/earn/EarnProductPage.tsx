import { adminCalls, type EarnProduct } from '@swx/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { allowed, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, plain } from '../DataTable.tsx';
import { Facts } from '../Facts.tsx';
import { Pending } from '../Field.tsx';
import { fill } from '../text.ts';
import {
  Money,
  Percent,
  RateText,
  statusText,
  termText,
  useEarnProducts,
  useEarnText,
} from './EarnProducts.tsx';
import { ProductForm } from './ProductForm.tsx';
import { ReserveFunding } from './ReserveFunding.tsx';

/** A product's terms as facts (what staff who may not change them read). */
function Terms({ product: p }: { product: EarnProduct }) {
  const t = useEarnText();
  return (
    <Facts
      testId="earn-terms"
      rows={[
        [t.type, t.types[p.type]],
        [t.asset, p.asset],
        [t.income, t.incomes[p.income]],
        [t.term, termText(t, p)],
        [t.annualRate, <RateText key="r" product={p} />],
        [t.limits, <Amount key="l" value={`${plain(p.minAmount)} – ${plain(p.maxAmount)} ${p.asset}`} />],
        [t.capacity, <Money key="c" value={p.capacity} asset={p.asset} />],
        [t.invested, <Money key="i" value={p.invested} asset={p.asset} />],
        [t.penalty, p.termDays === null ? '—' : <Percent key="p" ratio={p.penaltyRate} />],
        [
          t.rules,
          `${p.requiresKyc ? t.kycRequired : t.kycNotRequired}; ${p.onePerCustomer ? t.onePer : t.manyPer}`,
        ],
        [t.status, statusText(t, p)],
      ]}
    />
  );
}

/** /admin/earn/products/new: the create form (admins); a created product opens its own page. */
export function NewEarnProduct() {
  const { staff } = useBackOffice();
  const t = useEarnText();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section className="panel" aria-labelledby="earn-new-heading">
      <Link className="back" to="/earn/products">
        {t.backToProducts}
      </Link>
      <h2 id="earn-new-heading" ref={heading} tabIndex={-1}>
        {t.createHeading}
      </h2>
      {allowed(staff, adminCalls.createEarnProduct) ? (
        <ProductForm
          labelledBy="earn-new-heading"
          onSaved={(saved) =>
            navigate(`/earn/products/${saved.product.id}`, {
              state: { done: fill(t.created, { name: saved.product.name }) },
            })
          }
          onCancel={() => navigate('/earn/products')}
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
 * /admin/earn/products/:id: a product's reserve per book with the funding form, and its terms:
 * the edit form for admins, the facts for everyone else.
 */
export function EarnProductPage() {
  const { text, staff } = useBackOffice();
  const t = useEarnText();
  const id = Number(useParams().id);
  const location = useLocation();
  const query = useEarnProducts();
  const item = query.data?.find((r) => r.product.id === id);
  const heading = useRef<HTMLHeadingElement>(null);
  const [done, setDone] = useState<string>(() => (location.state as { done?: string } | null)?.done ?? '');
  const loaded = item !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  const back = (
    <Link className="back" to="/earn/products">
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
  const { product } = item;
  const mayEdit = allowed(staff, adminCalls.updateEarnProduct);
  return (
    <section className="panel" aria-labelledby="earn-product-heading">
      {back}
      <h2 id="earn-product-heading" ref={heading} tabIndex={-1}>
        {fill(t.productHeading, { name: product.name, id: product.id })}
      </h2>
      <p>
        <strong className={product.soldOut ? 'overdue' : undefined} data-testid="earn-status">
          {statusText(t, product)}
        </strong>
      </p>
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      <ReserveFunding item={item} />
      {mayEdit ? (
        <ProductForm
          key={product.id}
          product={product}
          onSaved={(saved) => {
            setDone(fill(t.saved, { name: saved.product.name }));
            heading.current?.focus();
          }}
        />
      ) : (
        <section className="earn-section" aria-labelledby="earn-terms-heading">
          <h3 id="earn-terms-heading">{t.termsHeading}</h3>
          <p className="muted">{t.readOnly}</p>
          <Terms product={product} />
        </section>
      )}
    </section>
  );
}
