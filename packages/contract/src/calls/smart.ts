import { z } from 'zod/mini';
import {
  listSmartQuery,
  smartBuyBody,
  smartPlan,
  smartPlanDetail,
  smartPlanParams,
  smartProduct,
  smartProductDetail,
  smartProductParams,
  smartQuote,
  smartQuoteBody,
  smartStopBody,
} from '../smart.ts';
import { type CallDefinition, call } from './define.ts';

/**
 * Smart trading plans (`modules/smart`): the spec names `order/buySmart` and
 * `order/listSmartOrder`; products, product detail (backtest beside the live record), quote, plan
 * detail and stop are ours. Live book only: quote, buy and stop answer 10043 in the demo book.
 */
export const smartCalls = {
  smartProducts: call({
    method: 'GET',
    path: '/order/smart/products',
    summary:
      'Smart-plan products with their strategy, risk limits and the realised yield of their plans (past, with its period)',
    auth: false,
    status: 'live',
    data: z.array(smartProduct),
  }),
  smartProduct: call({
    method: 'GET',
    path: '/order/smart/products/:id',
    summary:
      'One product: its strategy in plain words, the backtest over the past year of platform prices (equity curve, returns, drawdown, Sharpe, win rate, profit factor, trades, fees, market change) beside the live record of all its plans; 10010 unknown',
    auth: false,
    status: 'live',
    params: smartProductParams,
    data: smartProductDetail,
  }),
  smartQuote: call({
    method: 'POST',
    path: '/order/smart/quote',
    summary:
      'What joining a plan commits: amount, timeframe, fee share, risk limits, times and the backtest’s worst drawdown; 10010 product, 10015 not enabled, 10012 timeframe, 10016 amount, 10044 sold out, 10011 balance, 10043 demo book',
    auth: true,
    status: 'live',
    body: smartQuoteBody,
    data: smartQuote,
  }),
  buySmart: call({
    method: 'POST',
    path: '/order/buySmart',
    summary:
      'Join a smart trading plan at a quote (20004): the amount moves into the plan’s own account; 10032 expired quote, 10011, 10044 sold out, 10015, 10043 demo book',
    auth: true,
    status: 'live',
    body: smartBuyBody,
    data: smartPlan,
  }),
  listSmartOrder: call({
    method: 'GET',
    path: '/order/listSmartOrder',
    summary: 'My smart trading plans, newest first, with every field of the plan and income to date',
    auth: true,
    status: 'live',
    query: listSmartQuery,
    data: z.array(smartPlan),
  }),
  smartPlan: call({
    method: 'GET',
    path: '/order/smart/plans/:id',
    summary: 'One of my plans with every trade it made and each income day; another customer’s is 10028',
    auth: true,
    status: 'live',
    params: smartPlanParams,
    data: smartPlanDetail,
  }),
  stopSmart: call({
    method: 'POST',
    path: '/order/smart/stop',
    summary:
      'Stop my plan now: its open positions close at market, principal ± result comes back, the fee only on a positive result (20005); 10028 not mine or ended',
    auth: true,
    status: 'live',
    body: smartStopBody,
    data: smartPlanDetail,
  }),
} as const satisfies Record<string, CallDefinition>;
