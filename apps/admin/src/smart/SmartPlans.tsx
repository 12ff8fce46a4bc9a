import { type Language, SMART_STATES, type SmartPlanMonitorItem, type SmartState } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, type Column, DataTable, MoneyRange, timeColumn, useQueryState } from '../DataTable.tsx';
import { customerLabel, Facts, FactsSection } from '../Facts.tsx';
import { SelectField } from '../Field.tsx';
import { Money, Percent } from '../KitProductList.tsx';
import { KitSection, Screen, useFocusOnLoad } from '../KitScreen.tsx';
import { ItemPending } from '../ProductPages.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { fill, formatTime } from '../text.ts';
import { Filled, feeText, useSmartProducts, useSmartText } from './SmartProducts.tsx';
import type { SmartText } from './smart.text.ts';

type Filters = { state?: SmartState; product?: string };

/** The plan monitor's rows for these filters (the server's newest 200). */
function useSmartPlans(filters: Filters) {
  const { language } = useBackOffice();
  return useQuery({
    queryKey: keys.smartPlans(language, filters),
    queryFn: () =>
      callAdmin('smartPlanMonitor', {
        query: {
          ...(filters.state ? { state: filters.state } : {}),
          ...(filters.product ? { productId: filters.product } : {}),
        },
      }),
  });
}

/** Is the plan's drawdown at 80 % of its stop or beyond? */
const nearStop = (p: SmartPlanMonitorItem) =>
  Number(p.risk.drawdownStop) > 0 && Number(p.drawdown) >= 0.8 * Number(p.risk.drawdownStop);

/** "3.2 % of 15 %": how far the equity is below its highest, against the plan's drawdown stop. */
function Drawdown({ plan: p }: { plan: SmartPlanMonitorItem }) {
  const t = useSmartText();
  const near = nearStop(p);
  return (
    <span className="kit-stack">
      <Filled
        template={t.drawdownValue}
        parts={{ drawdown: <Percent ratio={p.drawdown} />, stop: <Percent ratio={p.risk.drawdownStop} /> }}
      />
      {near && p.state === 'in_progress' ? <strong className="overdue">{t.nearStop}</strong> : null}
    </span>
  );
}

/** The state, and why an ended plan ended. */
function stateText(t: SmartText, p: SmartPlanMonitorItem): string {
  const state = t.states[p.state];
  return p.endReason ? `${state} · ${t.endReasons[p.endReason]}` : state;
}

/** A signed amount of the plan's asset ("+12.50 USDT", "-3.00 USDT"). */
function Signed({ value, asset }: { value: string; asset: string }) {
  return (
    <span className={/^-.*[1-9]/.test(value) ? 'smart-down' : undefined}>
      <Money value={value} asset={asset} sign />
    </span>
  );
}

/** A plan's owner, linked to their page. */
const Owner = ({ plan: p }: { plan: SmartPlanMonitorItem }) => (
  <Link to={`/customers/${p.userId}`}>{customerLabel(p)}</Link>
);

/** The monitor's columns of what a plan is: its link, owner, product (and instruments), amount, start. */
function planColumns(t: SmartText, language: Language): Column<SmartPlanMonitorItem>[] {
  return [
    {
      key: 'plan',
      header: t.plan,
      cell: (p) => (
        <Link className="smart-nowrap" to={`/smart/plans/${p.id}`}>
          {fill(t.planValue, { id: p.id })}
        </Link>
      ),
      sortValue: (p) => p.id,
    },
    { key: 'customer', header: t.customer, cell: (p) => <Owner plan={p} />, sortValue: (p) => p.customer },
    {
      key: 'product',
      header: t.product,
      cell: (p) => (
        <span className="kit-stack">
          <Link to={`/smart/products/${p.productId}`}>{p.productName}</Link>
          <span className="muted" dir="ltr">
            {p.instruments.join(', ')}
          </span>
        </span>
      ),
      sortValue: (p) => p.productName,
    },
    {
      key: 'amount',
      header: t.amount,
      cell: (p) => <Money value={p.amount} asset={p.asset} />,
      sortValue: (p) => Number(p.amount),
    },
    timeColumn('start', t.start, language, (p) => p.startTime),
  ];
}

/** The monitor's columns of how a plan runs: next income, income so far, trades, drawdown, equity, state. */
function runColumns(t: SmartText, language: Language): Column<SmartPlanMonitorItem>[] {
  return [
    {
      key: 'nextIncome',
      header: t.nextIncome,
      cell: (p) => (p.nextIncomeTime ? formatTime(language, p.nextIncomeTime) : t.none),
      sortValue: (p) => p.nextIncomeTime ?? '',
    },
    {
      key: 'income',
      header: t.incomeToDate,
      cell: (p) => <Signed value={p.incomeToDate} asset={p.asset} />,
      sortValue: (p) => Number(p.incomeToDate),
    },
    {
      key: 'open',
      header: t.openPositions,
      cell: (p) => fill(t.openValue, { open: p.openTrades, count: p.tradeCount }),
      sortValue: (p) => p.openTrades,
    },
    {
      key: 'drawdown',
      header: t.drawdown,
      cell: (p) => <Drawdown plan={p} />,
      sortValue: (p) => Number(p.drawdown) / Math.max(Number(p.risk.drawdownStop), 1e-9),
    },
    {
      key: 'equity',
      header: t.equity,
      cell: (p) => <Money value={p.equity} asset={p.asset} />,
      sortValue: (p) => Number(p.equity),
    },
    {
      key: 'state',
      header: t.state,
      cell: (p) => <strong>{stateText(t, p)}</strong>,
      sortValue: (p) => stateText(t, p),
    },
  ];
}

/** The filters of the URL: a state, a product (a number). */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const state = SMART_STATES.find((s) => s === params.get('state'));
  const product = /^\d{1,16}$/.test(params.get('product') ?? '') ? (params.get('product') ?? '') : '';
  const setFilter = (name: 'state' | 'product', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const filters: Filters = { ...(state ? { state } : {}), ...(product ? { product } : {}) };
  return { state, product, filters, setFilter, clear: () => setParams({}, { replace: true }) };
}

/** The state and product filters (the products from their list), and clear once one is set. */
function PlanFilters({ filters: f }: { filters: ReturnType<typeof useFilters> }) {
  const t = useSmartText();
  const products = useSmartProducts();
  const { product } = f;
  return (
    <form className="filters" aria-label={t.filters} onSubmit={(e) => e.preventDefault()}>
      <SelectField
        label={t.stateFilter}
        name="state"
        value={f.state ?? ''}
        onChange={(e) => f.setFilter('state', e.target.value)}
        options={[
          { value: '', label: t.all },
          ...SMART_STATES.map((s) => ({ value: s, label: t.states[s] })),
        ]}
      />
      <SelectField
        label={t.productFilter}
        name="product"
        value={product}
        onChange={(e) => f.setFilter('product', e.target.value)}
        options={[
          { value: '', label: t.all },
          ...(products.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (${p.id})` })),
          // A product id from the URL before the products are there (or an unknown one) stays chosen.
          ...(product && !products.data?.some((p) => String(p.id) === product)
            ? [{ value: product, label: `#${product}` }]
            : []),
        ]}
      />
      {f.state || product ? (
        <div className="actions">
          <button type="button" onClick={f.clear}>
            {t.clear}
          </button>
        </div>
      ) : null}
    </form>
  );
}

/**
 * The smart-plan monitor (/admin/smart/plans): plans newest first with their owner (linked to their
 * page), product, amount, start, next income time, income to date, open positions, drawdown
 * against its stop, equity and state; filtered by state and product (in the URL, so a product's
 * page links to its plans).
 */
export function SmartPlans() {
  const { language } = useBackOffice();
  const t = useSmartText();
  const filters = useFilters();
  const query = useSmartPlans(filters.filters);
  const state = useQueryState(query);
  const filtered = Boolean(filters.state || filters.product);
  return (
    <Screen heading={t.plansHeading}>
      <p className="muted">{t.plansIntro}</p>
      <PlanFilters filters={filters} />
      <DataTable
        caption={t.plansHeading}
        columns={[...planColumns(t, language), ...runColumns(t, language)]}
        rows={query.data}
        rowKey={(p) => p.id}
        {...state}
        empty={filtered ? t.plansNoneMatch : t.plansEmpty}
        filterText={(p) => `${p.id} ${p.customer} ${p.userId} ${p.productName} ${stateText(t, p)}`}
        testId="smart-plans"
      />
    </Screen>
  );
}

/** A plan's own facts: owner, product, strategy, instruments, amount, its times. */
function PlanFacts({ plan: p, time }: { plan: SmartPlanMonitorItem; time: (iso: string | null) => string }) {
  const t = useSmartText();
  return (
    <Facts
      testId="smart-plan-facts"
      rows={[
        [t.customer, <Owner key="c" plan={p} />],
        [
          t.product,
          <Link key="p" to={`/smart/products/${p.productId}`}>
            {p.productName}
          </Link>,
        ],
        [t.strategy, t.strategies[p.strategy]],
        [
          t.instruments,
          <span key="i" dir="ltr">
            {p.instruments.join(', ')}
          </span>,
        ],
        [t.amount, <Money key="a" value={p.amount} asset={p.asset} />],
        [t.start, time(p.startTime)],
        [t.nextIncome, time(p.nextIncomeTime)],
        [t.endTime, time(p.endTime)],
        [t.runningTime, fill(t.runningValue, { days: p.runningDays })],
        [t.profitShareDays, String(p.profitShareDays)],
      ]}
    />
  );
}

/** What the plan realised so far, its equity against its highest and the stop, and how it ended. */
function PlanResults({
  plan: p,
  time,
}: {
  plan: SmartPlanMonitorItem;
  time: (iso: string | null) => string;
}) {
  const t = useSmartText();
  return (
    <FactsSection
      id="smart-plan-results"
      heading={t.resultsHeading}
      testId="smart-plan-results"
      rows={[
        [t.incomeToDate, <Signed key="i" value={p.incomeToDate} asset={p.asset} />],
        [t.dailyYield, p.dailyYield === null ? t.dailyYieldNone : <Percent key="y" ratio={p.dailyYield} />],
        [t.realisedReturn, <Percent key="r" ratio={p.realisedReturn} />],
        [t.equity, <Money key="e" value={p.equity} asset={p.asset} />],
        [t.highWater, <Money key="h" value={p.highWater} asset={p.asset} />],
        [t.drawdown, <Drawdown key="d" plan={p} />],
        [t.fee, p.fee === null ? t.none : <Money key="f" value={p.fee} asset={p.asset} />],
        [t.returned, p.returned === null ? t.none : <Money key="r" value={p.returned} asset={p.asset} />],
        [t.endedAt, time(p.endedAt)],
        [t.endReason, p.endReason ? t.endReasons[p.endReason] : t.none],
      ]}
    />
  );
}

/** The terms the plan was bought on, and its risk limits. */
function PlanTerms({ plan: p }: { plan: SmartPlanMonitorItem }) {
  const t = useSmartText();
  const r = p.risk;
  return (
    <FactsSection
      id="smart-plan-terms"
      heading={t.termsOfPlan}
      testId="smart-plan-terms"
      rows={[
        [t.timeframe, String(p.timeframeDays)],
        [t.rangeWhenBought, <MoneyRange key="r" min={p.minAmount} max={p.maxAmount} asset={p.asset} />],
        [t.feeShare, feeText(t, p)],
        [t.stopLoss, <Percent key="s" ratio={r.stopLoss} />],
        [t.takeProfit, <Percent key="t" ratio={r.takeProfit} />],
        [t.leverage, <Amount key="l" value={fill(t.leverageValue, { leverage: r.leverage })} />],
        [t.marginShare, fill(t.marginValue, { share: ratioToPercent(r.marginShare) })],
        [t.drawdownStop, <Percent key="d" ratio={r.drawdownStop} />],
      ]}
    />
  );
}

/**
 * /admin/smart/plans/:id: one plan from the monitor with every field of spec §3, its risk limits,
 * what it realised so far, its equity against its highest and the drawdown stop, and its trades'
 * counts (the staff API gives no per-trade list).
 */
export function SmartPlanPage() {
  const { language } = useBackOffice();
  const t = useSmartText();
  const id = Number(useParams().id);
  const query = useSmartPlans({});
  const plan = query.data?.find((p) => p.id === id);
  const heading = useFocusOnLoad(plan !== undefined);
  const back = (
    <Link className="back" to="/smart/plans">
      {t.backToPlans}
    </Link>
  );
  if (!plan) return <ItemPending back={back} query={query} id={id} notFound={t.planNotFound} />;
  const time = (iso: string | null) => (iso ? formatTime(language, iso) : t.none);
  return (
    <section className="panel" aria-labelledby="smart-plan-heading">
      {back}
      <h2 id="smart-plan-heading" ref={heading} tabIndex={-1}>
        {fill(t.planHeading, { id: plan.id })}
      </h2>
      <p>
        <strong data-testid="smart-plan-state">{stateText(t, plan)}</strong>
      </p>
      <PlanFacts plan={plan} time={time} />
      <PlanResults plan={plan} time={time} />
      <PlanTerms plan={plan} />
      <KitSection id="smart-plan-trades" heading={t.tradesHeading}>
        <p data-testid="smart-plan-trades">
          {fill(t.openValue, { open: plan.openTrades, count: plan.tradeCount })}
        </p>
        <p className="muted">{t.tradesNote}</p>
      </KitSection>
    </section>
  );
}
