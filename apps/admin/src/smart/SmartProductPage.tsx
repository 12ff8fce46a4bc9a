import { adminCalls, type SmartProduct } from '@swx/contract';
import { Link } from 'react-router';
import { allowed } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, Money, MoneyRange } from '../DataTable.tsx';
import { Facts } from '../Facts.tsx';
import { KitSection } from '../KitScreen.tsx';
import { NewProductPage, ProductPage } from '../ProductPages.tsx';
import { ratioToPercent } from '../rates.ts';
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
        [t.amounts, <MoneyRange key="a" min={p.minAmount} max={p.maxAmount} asset={p.asset} />],
        [t.capacity, <Money key="c" value={p.capacity} asset={p.asset} />],
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
  return (
    <NewProductPage
      area="smart"
      t={useSmartText()}
      mayCreate={allowed(staff, adminCalls.createSmartProduct)}
      form={(p) => <SmartProductForm {...p} />}
    />
  );
}

/**
 * /admin/smart/products/:id: a product's status, capacity and realised record, its strategy with
 * the risk limits, its plans in the monitor, and its terms: the edit form for admins, the facts for
 * everyone else.
 */
export function SmartProductPage() {
  const { staff } = useBackOffice();
  const t = useSmartText();
  return (
    <ProductPage
      area="smart"
      t={t}
      query={useSmartProducts()}
      find={(product) => product.id}
      heading={(product) => product}
      status={(product) => ({ text: statusText(t, product), warn: product.enabled && product.soldOut })}
      mayEdit={allowed(staff, adminCalls.updateSmartProduct)}
      form={(product, p) => <SmartProductForm key={product.id} product={product} onSaved={p.onSaved} />}
      terms={(product) => <Terms product={product} />}
    >
      {(product) => (
        <>
          <Facts
            testId="smart-product-figures"
            rows={[
              [t.capacity, <Capacity key="c" product={product} />],
              [t.realised, <Realised key="r" realised={product.realised} />],
            ]}
          />
          <Link to={`/smart/plans?product=${product.id}`}>{t.plansOfProduct}</Link>
          <KitSection id="smart-risk-heading" heading={t.riskHeading}>
            <Risk product={product} />
          </KitSection>
        </>
      )}
    </ProductPage>
  );
}
