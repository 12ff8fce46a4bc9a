import { adminCalls, type SmartProduct } from '@swx/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { allowed, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, plain } from '../DataTable.tsx';
import { ratioToPercent } from '../earn/rates.ts';
import { Facts } from '../Facts.tsx';
import { Pending } from '../Field.tsx';
import { fill } from '../text.ts';
import { SmartProductForm } from './SmartProductForm.tsx';
import {
  Capacity,
  feeText,
  Realised,
  StrategyName,
  statusText,
  timeframesText,
  useSmartProducts,
  useSmartText,
} from './SmartProducts.tsx';

/** A product's terms as facts (what staff who may not change them read). */
function Terms({ product: p }: { product: SmartProduct }) {
  const t = useSmartText();
  return (
    <Facts
      testId="smart-terms"
      rows={[
        [t.strategy, t.strategies[p.strategy.key]],
        [
          t.instruments,
          <span key="i" dir="ltr">
            {p.instruments.join(', ')}
          </span>,
        ],
        [
          t.timeframes,
          <span key="t" dir="ltr">
            {timeframesText(p)}
          </span>,
        ],
        [t.amounts, <Amount key="a" value={`${plain(p.minAmount)} – ${plain(p.maxAmount)} ${p.asset}`} />],
        [t.capacity, <Amount key="c" value={`${plain(p.capacity)} ${p.asset}`} />],
        [t.feeShare, feeText(t, p)],
        [t.status, statusText(t, p)],
      ]}
    />
  );
}

/** The strategy's rule settings and the risk limits every plan of the product carries. */
function Risk({ product: p }: { product: SmartProduct }) {
  const t = useSmartText();
  const r = p.strategy.risk;
  const percent = (ratio: string) => (
    <Amount value={fill(t.percentValue, { value: ratioToPercent(ratio) })} />
  );
  return (
    <Facts
      testId="smart-risk"
      rows={[
        [t.strategy, <StrategyName key="s" product={p} />],
        [
          t.parameters,
          <span key="p" dir="ltr">
            {Object.entries(p.strategy.parameters)
              .map(([name, value]) => `${name} ${value}`)
              .join(', ')}
          </span>,
        ],
        [t.stopLoss, percent(r.stopLoss)],
        [t.takeProfit, percent(r.takeProfit)],
        [t.tradingFee, fill(t.tradingFeeValue, { rate: ratioToPercent(p.tradingFeeRate) })],
        [t.spread, percent(p.spreadRate)],
        [t.leverage, <Amount key="l" value={fill(t.leverageValue, { leverage: r.leverage })} />],
        [t.marginShare, fill(t.marginValue, { share: ratioToPercent(r.marginShare) })],
        [t.drawdownStop, percent(r.drawdownStop)],
      ]}
    />
  );
}

/** /admin/smart/products/new: the create form (admins); a created product opens its own page. */
export function NewSmartProduct() {
  const { staff } = useBackOffice();
  const t = useSmartText();
  const navigate = useNavigate();
  return (
    <section className="panel" aria-labelledby="smart-new-heading">
      <Link className="back" to="/smart/products">
        {t.backToProducts}
      </Link>
      <h2 id="smart-new-heading" tabIndex={-1}>
        {t.createHeading}
      </h2>
      {allowed(staff, adminCalls.createSmartProduct) ? (
        <SmartProductForm
          labelledBy="smart-new-heading"
          onSaved={(saved) =>
            navigate(`/smart/products/${saved.id}`, {
              state: { done: fill(t.created, { name: saved.name }) },
            })
          }
          onCancel={() => navigate('/smart/products')}
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
 * /admin/smart/products/:id: a product's status, capacity and realised record, its strategy with
 * the risk limits, its plans in the monitor, and its terms: the edit form for admins, the facts for
 * everyone else.
 */
export function SmartProductPage() {
  const { text, staff } = useBackOffice();
  const t = useSmartText();
  const id = Number(useParams().id);
  const location = useLocation();
  const query = useSmartProducts();
  const product = query.data?.find((p) => p.id === id);
  const heading = useRef<HTMLHeadingElement>(null);
  const [done, setDone] = useState<string>(() => (location.state as { done?: string } | null)?.done ?? '');
  const loaded = product !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  const back = (
    <Link className="back" to="/smart/products">
      {t.backToProducts}
    </Link>
  );
  if (!product)
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
  const mayEdit = allowed(staff, adminCalls.updateSmartProduct);
  return (
    <section className="panel" aria-labelledby="smart-product-heading">
      {back}
      <h2 id="smart-product-heading" ref={heading} tabIndex={-1}>
        {fill(t.productHeading, { name: product.name, id: product.id })}
      </h2>
      <p>
        <strong
          className={product.enabled && product.soldOut ? 'overdue' : undefined}
          data-testid="smart-status"
        >
          {statusText(t, product)}
        </strong>
      </p>
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      <Facts
        testId="smart-product-figures"
        rows={[
          [t.capacity, <Capacity key="c" product={product} />],
          [t.realised, <Realised key="r" realised={product.realised} />],
        ]}
      />
      <Link to={`/smart/plans?product=${product.id}`}>{t.plansOfProduct}</Link>
      <section className="smart-section" aria-labelledby="smart-risk-heading">
        <h3 id="smart-risk-heading">{t.riskHeading}</h3>
        <Risk product={product} />
      </section>
      {mayEdit ? (
        <SmartProductForm
          key={product.id}
          product={product}
          onSaved={(saved) => {
            setDone(fill(t.saved, { name: saved.name }));
            heading.current?.focus();
          }}
        />
      ) : (
        <section className="smart-section" aria-labelledby="smart-terms-heading">
          <h3 id="smart-terms-heading">{t.termsHeading}</h3>
          <p className="muted">{t.readOnly}</p>
          <Terms product={product} />
        </section>
      )}
    </section>
  );
}
