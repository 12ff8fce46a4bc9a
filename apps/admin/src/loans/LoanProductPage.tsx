import { adminCalls, type LoanPool, type LoanProduct } from '@swx/contract';
import { Link } from 'react-router';
import { allowed } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { MoneyRange } from '../DataTable.tsx';
import { Facts } from '../Facts.tsx';
import { Money } from '../KitProductList.tsx';
import { KitSection } from '../KitScreen.tsx';
import { NewProductPage, ProductPage } from '../ProductPages.tsx';
import { fill } from '../text.ts';
import { LoanProductForm } from './LoanProductForm.tsx';
import { lateText, rateText, statusText, termsText, useLoanProducts, useLoanText } from './LoanProducts.tsx';

/** A product's terms as facts (what staff who may not change them read). */
function Terms({ product: p }: { product: LoanProduct }) {
  const t = useLoanText();
  return (
    <Facts
      testId="loan-terms"
      rows={[
        [t.asset, p.asset],
        [t.amounts, <MoneyRange key="a" min={p.minAmount} max={p.maxAmount} asset={p.asset} />],
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
  return (
    <NewProductPage
      area="loans"
      prefix="loan"
      t={useLoanText()}
      mayCreate={allowed(staff, adminCalls.createLoanProduct)}
      form={(p) => <LoanProductForm {...p} onSaved={(saved) => p.onSaved(saved.product)} />}
    />
  );
}

/**
 * /admin/loans/products/:id: a product's status, its asset's lending pool, and its terms: the
 * edit form for admins, the facts for everyone else.
 */
export function LoanProductPage() {
  const { staff } = useBackOffice();
  const t = useLoanText();
  return (
    <ProductPage
      area="loans"
      prefix="loan"
      t={t}
      query={useLoanProducts()}
      find={(item) => item.product.id}
      heading={(item) => item.product}
      status={(item) => ({
        text: statusText(t, item.product),
        warn: item.product.enabled && !item.product.available,
      })}
      mayEdit={allowed(staff, adminCalls.updateLoanProduct)}
      form={(item, p) => (
        <LoanProductForm
          key={item.product.id}
          product={item.product}
          onSaved={(saved) => p.onSaved(saved.product)}
        />
      )}
      terms={(item) => <Terms product={item.product} />}
    >
      {({ product, pool }) => (
        <KitSection id="loan-pool-heading" heading={fill(t.poolOfProduct, { asset: product.asset })}>
          <PoolFacts pool={pool} testId="loan-product-pool" />
          <Link to="/loans/pools">{t.fundLink}</Link>
        </KitSection>
      )}
    </ProductPage>
  );
}
