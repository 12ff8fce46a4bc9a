import { z } from 'zod/mini';
import {
  candleQuery,
  candleSeries,
  listMarketQuery,
  marketIdParams,
  marketItem,
  watchBody,
} from '../market.ts';
import { type CallDefinition, call } from './define.ts';

/** Market items, candles and the watchlist (`modules/market`). */
export const marketCalls = {
  listMarketByType: call({
    method: 'GET',
    path: '/index/listMarketByType',
    summary:
      'Market items of one type (1 forex, 2 crypto, 3 stocks, 5 ETF, 6 metals, 7 futures) with price, 24 h change and mini chart',
    auth: false,
    status: 'live',
    query: listMarketQuery,
    data: z.array(marketItem),
  }),
  getKValueByCodeAndDate: call({
    method: 'GET',
    path: '/index/getKValueByCodeAndDate',
    summary: 'Candles (1m 5m 15m 1h 4h 1d 1w) ending on a date of the past year (default now)',
    auth: false,
    status: 'live',
    query: candleQuery,
    data: candleSeries,
  }),
  getMarketInfo: call({
    method: 'GET',
    path: '/index/getMarketInfo/:id',
    summary: 'One market item',
    auth: false,
    status: 'live',
    params: marketIdParams,
    data: marketItem,
  }),
  listWatchlist: call({
    method: 'GET',
    path: '/user/listWatchlist',
    summary: 'My watchlist, as market items',
    auth: true,
    status: 'live',
    data: z.array(marketItem),
  }),
  addWatchlist: call({
    method: 'POST',
    path: '/user/addWatchlist',
    summary: 'Add an instrument to my watchlist',
    auth: true,
    status: 'live',
    body: watchBody,
    data: z.null(),
  }),
  removeWatchlist: call({
    method: 'POST',
    path: '/user/removeWatchlist',
    summary: 'Remove an instrument from my watchlist',
    auth: true,
    status: 'live',
    body: watchBody,
    data: z.null(),
  }),
} as const satisfies Record<string, CallDefinition>;
