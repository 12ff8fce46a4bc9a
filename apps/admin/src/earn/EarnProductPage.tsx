import { adminCalls, type EarnProduct } from '@swx/contract';
import { allowed } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { MoneyRange } from '../DataTable.tsx';
import { Facts } from '../Facts.tsx';
import { Money, Percent } from '../KitProductList.tsx';
import { NewProductPage, ProductPage } from '../ProductPages.tsx';
import { RateText, statusText, termText, useEarnProducts, useEarnText } from './EarnProducts.tsx';
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
        [t.limits, <MoneyRange key="l" min={p.minAmount} max={p.maxAmount} asset={p.asset} />],
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
  return (
    <NewProductPage
      area="earn"
      t={useEarnText()}
      mayCreate={allowed(staff, adminCalls.createEarnProduct)}
      form={(p) => <ProductForm {...p} onSaved={(saved) => p.onSaved(saved.product)} />}
    />
  );
}

/**
 * /admin/earn/products/:id: a product's reserve per book with the funding form, and its terms:
 * the edit form for admins, the facts for everyone else.
 */
export function EarnProductPage() {
  const { staff } = useBackOffice();
  const t = useEarnText();
  return (
    <ProductPage
      area="earn"
      t={t}
      query={useEarnProducts()}
      find={(item) => item.product.id}
      heading={(item) => item.product}
      status={(item) => ({ text: statusText(t, item.product), warn: item.product.soldOut !== null })}
      mayEdit={allowed(staff, adminCalls.updateEarnProduct)}
      form={(item, p) => (
        <ProductForm
          key={item.product.id}
          product={item.product}
          onSaved={(saved) => p.onSaved(saved.product)}
        />
      )}
      terms={(item) => <Terms product={item.product} />}
    >
      {(item) => <ReserveFunding item={item} />}
    </ProductPage>
  );
}
