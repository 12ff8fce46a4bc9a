import type { Download, Locator } from 'playwright-core';
import { BackOffice } from './back-office.ts';
import { ReviewPage } from './review-page.ts';

/** What the loan product form asks, by the English labels (rates in percent). */
export type NewLoanProduct = {
  name: string;
  asset?: 'USDT' | 'USDC' | 'BTC' | 'ETH';
  min: string;
  max: string;
  /** The terms in days as typed, e.g. "7, 14, 30". */
  terms: string;
  /** % a day. */
  dailyRate: string;
  interestFreeDays: string;
  /** % a day after the due date. */
  lateDailyRate: string;
  /** % of the amount borrowed. */
  lateCap: string;
};

/** Loan products (/admin/loans/products), the create form and a product's page with its pool. */
export class LoanProductsPage extends BackOffice {
  readonly table = this.page.getByTestId('loan-products');
  readonly status = this.page.getByTestId('loan-status');
  readonly pool = this.page.getByTestId('loan-product-pool');

  async goto(): Promise<void> {
    await this.page.goto('/admin/loans/products');
    await this.heading('Loan products', 2).waitFor();
  }

  row(name: string): Locator {
    return this.table.locator('tbody tr').filter({ hasText: name });
  }

  /** Creates a product through the form and waits for its page. */
  async create(p: NewLoanProduct): Promise<void> {
    await this.page.getByRole('link', { name: 'New product' }).click();
    const form = this.page.getByRole('form', { name: 'New loan product' });
    await form.waitFor();
    await form.getByLabel('Name', { exact: true }).fill(p.name);
    if (p.asset) await form.getByLabel('Asset', { exact: true }).selectOption(p.asset);
    await form.getByLabel(/^Minimum amount/).fill(p.min);
    await form.getByLabel(/^Maximum amount/).fill(p.max);
    await form.getByLabel('Terms (days)').fill(p.terms);
    await form.getByLabel('Daily rate (% a day)').fill(p.dailyRate);
    await form.getByLabel('Interest-free days').fill(p.interestFreeDays);
    await form.getByLabel('Late-payment rate (% a day)').fill(p.lateDailyRate);
    await form.getByLabel('Late-payment cap (% of the amount)').fill(p.lateCap);
    await form.getByRole('button', { name: 'Create product' }).click();
    await this.heading(new RegExp(`^${p.name} \\(loan product \\d+\\)$`), 2).waitFor();
  }

  /** The edit form of a product's page (admins). */
  terms(name: string): Locator {
    return this.page.getByRole('form', { name: `Terms of ${name}` });
  }
}

/** The lending pools (/admin/loans/pools) and the funding form with its preview. */
export class LoanPoolsPage extends BackOffice {
  readonly table = this.page.getByTestId('loan-pools');
  readonly fundForm = this.page.getByRole('form', { name: 'Fund a lending pool' });

  async goto(): Promise<void> {
    await this.page.goto('/admin/loans/pools');
    await this.heading('Lending pools', 2).waitFor();
    await this.table.waitFor();
  }

  /** An asset's row of the pools table. */
  row(asset: string): Locator {
    return this.table.locator('tbody tr').filter({ has: this.page.getByText(asset, { exact: true }) });
  }

  /** Types a funding (without sending it): the preview follows the amount. */
  async typeFunding(asset: string, amount: string, reason: string): Promise<void> {
    await this.fundForm.getByLabel('Asset').selectOption(asset);
    await this.fundForm.getByLabel(/^Amount/).fill(amount);
    await this.fundForm.getByLabel(/^Reason/).fill(reason);
  }

  /** The pool balance after the typed amount, as the preview shows it. */
  after(): Locator {
    return this.fundForm.getByTestId('pool-after');
  }

  async fund(): Promise<void> {
    await this.fundForm.getByRole('button', { name: 'Fund pool' }).click();
    await this.page.getByText(/ added to the lending pool\. /).waitFor();
  }
}

/** The loan application queue (/admin/loans/applications) and one application's review page. */
export class LoanApplicationReviewPage extends ReviewPage {
  readonly customer = this.page.getByTestId('loan-application-customer');
  readonly sheet = this.page.getByTestId('loan-application-sheet');
  readonly signature = this.page.locator('.loan-signature .thumb img');

  async gotoQueue(): Promise<void> {
    await this.page.goto('/admin/loans/applications');
    await this.heading('Loan applications', 2).waitFor();
  }

  /** Opens the review of a customer's application from the queue. */
  async review(customer: string): Promise<void> {
    await this.page.getByRole('link', { name: new RegExp(`^Review ${customer} `) }).click();
    await this.heading(/^Loan application \d+$/).waitFor();
  }

  /** Downloads the signed agreement (the PDF) from the page. */
  async downloadAgreement(): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByRole('button', { name: 'Download the signed agreement (PDF)' }).click(),
    ]);
    return download;
  }
}

/** The loan repayment-proof queue (/admin/loans/proofs) and one proof's review page. */
export class LoanProofReviewPage extends ReviewPage {
  readonly proof = this.page.locator('.photos .thumb img');
  readonly facts = this.page.getByTestId('loan-proof-facts');
  readonly owed = this.page.getByTestId('loan-proof-owed');

  async gotoQueue(): Promise<void> {
    await this.page.goto('/admin/loans/proofs');
    await this.heading('Loan repayment proofs', 2).waitFor();
  }

  async review(customer: string): Promise<void> {
    await this.page.getByRole('link', { name: new RegExp(`^Review ${customer} `) }).click();
    await this.heading(/^Loan repayment \d+$/).waitFor();
  }
}

/** Overdue loans (/admin/loans/overdue). */
export class OverdueLoansPage extends BackOffice {
  readonly table = this.page.getByTestId('loan-overdue');

  async goto(): Promise<void> {
    await this.page.goto('/admin/loans/overdue');
    await this.heading('Overdue loans', 2).waitFor();
  }

  row(customer: string): Locator {
    return this.table.locator('tbody tr').filter({ hasText: customer });
  }
}
