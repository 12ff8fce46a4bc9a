import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

export type Figures = Record<string, { value: string; text: string }>;

/** The rows of a facts list (`[data-figure]`): each row's exact value and its text. */
function figuresOf(list: Locator): Promise<Figures> {
  return list.evaluate((root) => {
    const rows: Record<string, { value: string; text: string }> = {};
    for (const row of root.querySelectorAll<HTMLElement>('[data-figure]'))
      rows[row.dataset.figure ?? ''] = { value: row.dataset.value ?? '', text: row.innerText };
    return rows;
  });
}

/** /loan: my limit with the rule that gives it and the next step, the products as cards, the KYC gate, the demo notice. */
export class LoanBrowsePage extends PageModel {
  readonly limit = this.page.getByTestId('loan-limit');
  /** Why the limit is what it is (the rule and my loans), and the next step (`data-value`: its share). */
  readonly limitWhy = this.limit.getByTestId('loan-limit-why');
  readonly limitNext = this.limit.getByTestId('loan-limit-next');
  readonly products = this.page.getByTestId('loan-products');
  readonly gate = this.page.getByTestId('kyc-gate');
  readonly demo = this.page.getByTestId('loan-demo');

  async goto(): Promise<void> {
    await this.page.goto('/loan');
  }

  card(name: string): Locator {
    return this.page
      .locator('.loan-card')
      .filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  /** Opens a product's borrow screen from its card. */
  async borrow(name: string): Promise<void> {
    await this.card(name).getByTestId('borrow').click();
  }

  /** Follows the gate's way to the verification screen. */
  async verifyIdentity(): Promise<void> {
    await this.gate.getByRole('link').click();
  }
}

/** /loan/borrow/:productId: amount and term, the information sheet, the agreement and the signature. */
export class LoanBorrowPage extends PageModel {
  readonly form = this.page.getByTestId('loan-borrow');
  readonly amount = this.form.locator('input[name="amount"]');
  readonly sheet = this.page.getByTestId('loan-sheet');
  readonly agreement = this.page.getByTestId('loan-agreement');
  readonly accept = this.agreement.locator('input[name="acceptAgreement"]');
  readonly pad = this.page.getByTestId('signature-pad');
  readonly clear = this.page.getByTestId('signature-clear');
  readonly submit = this.page.getByTestId('loan-apply');
  readonly gate = this.page.getByTestId('kyc-gate');

  term(days: number): Locator {
    return this.form.locator(`input[name="termDays"][value="${days}"]`);
  }

  /** Types an amount, picks a term and waits for the sheet of exactly that amount. */
  async enter(amount: string, termDays: number): Promise<Figures> {
    await this.term(termDays).check();
    await this.amount.fill(amount);
    await this.sheet.locator(`[data-figure="termDays"][data-value="${termDays}"]`).waitFor();
    await this.page.waitForFunction(
      (wanted) =>
        document.querySelector<HTMLElement>('[data-testid="loan-sheet"] [data-figure="amount"]')?.dataset
          .value === wanted,
      amount.includes('.') ? amount : `${amount}.000000`,
    );
    return figuresOf(this.sheet);
  }

  sheetFigures(): Promise<Figures> {
    return figuresOf(this.sheet);
  }

  /** Draws a signature with the mouse: a few strokes across the box. */
  async draw(): Promise<void> {
    await this.pad.scrollIntoViewIfNeeded();
    const box = await this.pad.boundingBox();
    if (!box) throw new Error('no signature box');
    const at = (x: number, y: number) => [box.x + box.width * x, box.y + box.height * y] as const;
    const strokes = [
      [
        [0.1, 0.6],
        [0.2, 0.3],
        [0.3, 0.7],
        [0.4, 0.35],
        [0.5, 0.65],
      ],
      [
        [0.55, 0.5],
        [0.7, 0.4],
        [0.85, 0.55],
      ],
    ] as const;
    for (const stroke of strokes) {
      const [first, ...rest] = stroke;
      await this.page.mouse.move(...at(first[0], first[1]));
      await this.page.mouse.down();
      for (const [x, y] of rest) await this.page.mouse.move(...at(x, y), { steps: 5 });
      await this.page.mouse.up();
    }
  }

  /** Signs with the keyboard alone: the typed name put in the signature box. */
  async signWithName(name: string): Promise<void> {
    const typed = this.page.locator('.loan-signature-typed');
    await typed.locator('summary').click();
    await typed.locator('input[name="signatureName"]').fill(name);
    await typed.locator('input[name="signatureName"]').press('Tab');
    await this.page.keyboard.press('Enter');
  }

  /** Accepts the agreement and applies (the caller signs first, or not). */
  async acceptAndApply(): Promise<void> {
    await this.accept.check();
    await this.submit.click();
  }
}

/** /loan/records and the profile's entries: loans as cards. */
export class LoanRecordsPage extends PageModel {
  readonly records = this.page.getByTestId('loan-records');

  card(id: number): Locator {
    return this.page.locator(`.loan-record[data-loan="${id}"]`);
  }
}

/** /loan/:id: the loan in words, its figures, owed and paid, the repayment and its confirm dialog. */
export class LoanDetailPage extends PageModel {
  readonly state = this.page.locator('.loan-summary').getByTestId('loan-state');
  readonly facts = this.page.getByTestId('loan-facts');
  readonly amounts = this.page.getByTestId('loan-amounts');
  readonly repay = this.page.getByTestId('loan-repay');
  readonly payoff = this.page.getByTestId('payoff');
  readonly confirm = this.page.getByTestId('repay-confirm');
  readonly download = this.page.getByTestId('agreement-download');
  readonly proof = this.page.getByTestId('repay-proof');

  async goto(id: number): Promise<void> {
    await this.page.goto(`/loan/${id}`);
  }

  factFigures(): Promise<Figures> {
    return figuresOf(this.facts);
  }

  payoffFigures(): Promise<Figures> {
    return figuresOf(this.payoff);
  }

  /** What is owed now (the owed column's total). */
  owedTotal(): Locator {
    return this.amounts.locator('[data-row="total"] [data-column="owed"]');
  }

  /** What is owed now of one part (`principal`, `interest`, `lateCost`, `total`). */
  owed(row: 'principal' | 'interest' | 'lateCost' | 'total'): Locator {
    return this.amounts.locator(`[data-row="${row}"] [data-column="owed"]`);
  }

  /** The day-by-day list of interest and late cost (opened), oldest day first. */
  async accrualRows(): Promise<{ day: string; interest: string; lateCost: string }[]> {
    const list = this.page.getByTestId('loan-accruals');
    if ((await list.getAttribute('open')) === null) await list.locator('summary').click();
    const rows = await list.locator('tr[data-day]').evaluateAll((trs) =>
      trs.map((tr) => ({
        day: (tr as HTMLElement).dataset.day ?? '',
        interest: tr.querySelector<HTMLElement>('[data-column="interest"]')?.dataset.value ?? '',
        lateCost: tr.querySelector<HTMLElement>('[data-column="lateCost"]')?.dataset.value ?? '',
      })),
    );
    return rows.reverse();
  }

  /** Asks to repay a part from the balance; answers the confirm dialog's figures. */
  async repayPart(amount: string): Promise<Figures> {
    await this.repay.locator('input[name="repayMethod"][value="balance"]').check();
    await this.repay.locator('input[name="repayFull"][value="part"]').check();
    await this.repay.locator('input[name="repayAmount"]').fill(amount);
    await this.repay.getByTestId('repay-review').click();
    await this.confirm.waitFor();
    return figuresOf(this.confirm);
  }

  /** Asks to repay everything owed today from the balance; answers the confirm dialog's figures. */
  async repayFull(): Promise<Figures> {
    await this.repay.locator('input[name="repayMethod"][value="balance"]').check();
    await this.repay.locator('input[name="repayFull"][value="full"]').check();
    await this.repay.getByTestId('repay-review').click();
    await this.confirm.waitFor();
    return figuresOf(this.confirm);
  }

  /** Asks to withdraw from the agreement (within its 14 days). */
  async withdraw(): Promise<void> {
    await this.page.getByTestId('withdraw').getByRole('button').click();
    await this.confirm.waitFor();
  }

  /** The confirm dialog's figures. */
  confirmFigures(): Promise<Figures> {
    return figuresOf(this.confirm);
  }

  async confirmRepay(): Promise<void> {
    await this.confirm.locator('.button.primary').click();
    await this.confirm.waitFor({ state: 'detached' });
  }

  /** Sends a repayment by transfer: the amount, the transaction hash and the proof image. */
  async sendProof(amount: string, txHash: string, image: Buffer): Promise<void> {
    await this.proof.locator('input[name="proofAmount"]').fill(amount);
    await this.proof.locator('input[name="txHash"]').fill(txHash);
    await this.proof
      .locator('input[type="file"]')
      .setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: image });
    await this.proof.getByText('Uploaded and checked.').waitFor();
    await this.proof.getByTestId('proof-submit').click();
  }

  /** Chooses to repay by a transfer with a proof. */
  async byProof(): Promise<void> {
    await this.repay.locator('input[name="repayMethod"][value="proof"]').check();
  }
}
