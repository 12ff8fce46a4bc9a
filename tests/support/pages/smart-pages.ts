import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

export type SmartFigures = Record<string, { value: string; text: string }>;

/** The figures of a list (`[data-figure]` rows): each row's exact value and its text. */
async function figuresOf(list: Locator): Promise<SmartFigures> {
  return list.evaluate((root) => {
    const rows: Record<string, { value: string; text: string }> = {};
    for (const row of root.querySelectorAll<HTMLElement>('[data-figure]'))
      rows[row.dataset.figure ?? ''] = { value: row.dataset.value ?? '', text: row.innerText };
    return rows;
  });
}

/** What every smart screen has: its title, the demo book's refusal with the book switch, the loading state. */
class SmartScreen extends PageModel {
  readonly title = this.page.locator('.smart-page .page-title');
  readonly demo = this.page.getByTestId('smart-demo');

  /** Waits for the screen's title and for nothing on it to be loading. */
  async ready(): Promise<void> {
    await this.title.waitFor();
    await this.page.locator('.smart-page [data-loading]').first().waitFor({ state: 'detached' });
  }

  /** Switches to the live book with the switch the demo refusal offers. */
  async switchToLive(): Promise<void> {
    await this.demo.getByRole('button', { name: 'Live account' }).click();
  }
}

/** /trading: the products as cards with the realised yield of their plans. */
export class SmartListPage extends SmartScreen {
  readonly cards = this.page.locator('.smart-card');
  readonly notEnabled = this.page.getByTestId('smart-not-enabled');

  async goto(): Promise<void> {
    await this.page.goto('/trading');
    await this.ready();
  }

  card(name: string): Locator {
    return this.cards.filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  /** The realised yield a card states (`data-value` empty: no record yet). */
  realised(name: string): Locator {
    return this.card(name).getByTestId('realised');
  }

  async open(name: string): Promise<void> {
    await this.card(name).locator('a.button').click();
  }
}

/** /trading/:productId: the strategy, its risk limits, the backtest beside the live record, and create a plan. */
export class SmartProductPage extends SmartScreen {
  readonly strategy = this.page.getByTestId('smart-strategy');
  readonly risk = this.page.getByTestId('risk-limits');
  readonly backtest = this.page.getByTestId('smart-backtest');
  readonly backtestFigures = this.page.getByTestId('backtest-figures');
  readonly chart = this.page.locator('.smart-chart[data-points]');
  readonly live = this.page.getByTestId('smart-live');
  readonly create = this.page.getByTestId('smart-create');
  readonly amount = this.create.locator('input[name="amount"]');
  readonly quote = this.page.getByTestId('smart-quote');
  readonly quoteFigures = this.page.getByTestId('quote-figures');
  readonly confirm = this.page.getByTestId('smart-confirm');
  readonly refusal = this.page.locator('.smart-refusal');

  async goto(id: number): Promise<void> {
    await this.page.goto(`/trading/${id}`);
    await this.ready();
  }

  riskLimits(): Promise<SmartFigures> {
    return figuresOf(this.risk);
  }

  backtestReport(): Promise<SmartFigures> {
    return figuresOf(this.backtestFigures);
  }

  /** Types an amount and picks a timeframe (in days); does not wait for the quote. */
  async choose(amount: string, days: number): Promise<void> {
    await this.create.locator(`input[name="timeframe"][value="${days}"]`).check();
    await this.amount.fill(amount);
  }

  /** Types an amount, picks a timeframe and waits for its quote's figures. */
  async enter(amount: string, days: number): Promise<SmartFigures> {
    await this.choose(amount, days);
    try {
      await this.quoteFigures.locator(`[data-figure="timeframe"][data-value="${days}"]`).waitFor();
    } catch (error) {
      const typed = await this.amount.inputValue().catch(() => '(no field)');
      throw new Error(
        `no quote for ${amount} over ${days} days (field: ${typed}): ${await this.quote.innerText()}`,
        {
          cause: error,
        },
      );
    }
    return figuresOf(this.quoteFigures);
  }

  /** Opens the confirm step; answers its figures and the risk limits it repeats. */
  async review(): Promise<{ figures: SmartFigures; risk: SmartFigures }> {
    await this.page.getByTestId('smart-review').click();
    await this.confirm.getByTestId('confirm-figures').waitFor();
    return {
      figures: await figuresOf(this.confirm.getByTestId('confirm-figures')),
      risk: await figuresOf(this.confirm.getByTestId('confirm-risk')),
    };
  }

  async confirmPlan(): Promise<void> {
    await this.confirm.locator('.button.primary').click();
  }
}

/** /trading/plans: my plans as cards. */
export class MySmartPlansPage extends SmartScreen {
  readonly cards = this.page.locator('.smart-card[data-plan]');
  readonly none = this.page.getByTestId('smart-no-plans');

  async goto(): Promise<void> {
    await this.page.goto('/trading/plans');
    await this.ready();
  }

  card(id: number): Locator {
    return this.page.locator(`.smart-card[data-plan="${id}"]`);
  }

  status(id: number): Locator {
    return this.card(id).getByTestId('smart-status');
  }

  figures(id: number): Promise<SmartFigures> {
    return figuresOf(this.card(id));
  }
}

/** /trading/plans/:id: every field, every trade, each income day, and Stop. */
export class SmartPlanPage extends SmartScreen {
  readonly facts = this.page.getByTestId('plan-facts');
  readonly status = this.page.locator('.smart-summary').getByTestId('smart-status');
  readonly trades = this.page.getByTestId('smart-trades');
  readonly tradeRows = this.trades.locator('tbody tr');
  readonly incomes = this.page.getByTestId('smart-incomes');
  readonly incomeRows = this.incomes.locator('tbody tr');
  readonly stopDialog = this.page.getByTestId('smart-stop');
  readonly settlement = this.page.getByTestId('smart-settlement');

  async goto(id: number): Promise<void> {
    await this.page.goto(`/trading/plans/${id}`);
    await this.ready();
  }

  planFacts(): Promise<SmartFigures> {
    return figuresOf(this.facts);
  }

  /** Asks to stop; answers what the dialog says and shows. */
  async askStop(): Promise<{ text: string; figures: SmartFigures }> {
    await this.page.getByTestId('smart-stop-open').click();
    await this.stopDialog.locator('.confirm-dialog-scroll').waitFor();
    return { text: await this.stopDialog.innerText(), figures: await figuresOf(this.stopDialog) };
  }

  async confirmStop(): Promise<void> {
    await this.stopDialog.locator('.button.primary').click();
  }

  /** What the end gave back, once shown: principal, result, fee, returned. */
  async settled(): Promise<SmartFigures> {
    await this.settlement.waitFor();
    return figuresOf(this.settlement);
  }
}
