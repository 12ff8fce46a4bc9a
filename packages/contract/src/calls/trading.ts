import { marketIdParams } from '../market.ts';
import {
  openBody,
  orderIdBody,
  orderIdParams,
  orderListQuery,
  orderPage,
  positionView,
  ticketBody,
  ticketFigures,
  tradingTerms,
  updateOrderBody,
} from '../trading.ts';
import { type CallDefinition, call } from './define.ts';

/** Leveraged positions: terms, preview, open, change, close, list (`modules/trading`). */
export const tradingCalls = {
  getTradingTerms: call({
    method: 'GET',
    path: '/order/getTradingTerms/:id',
    summary: 'Lot size, leverage choices, fee and spread of an instrument, stated before trading',
    auth: false,
    status: 'live',
    params: marketIdParams,
    data: tradingTerms,
  }),
  previewOptions: call({
    method: 'POST',
    path: '/order/previewOptions',
    summary: 'Every figure of a position as it would open at the current tick (nothing is opened)',
    auth: false,
    status: 'live',
    body: ticketBody,
    data: ticketFigures,
  }),
  openPosition: call({
    method: 'POST',
    path: '/order/buyOptions',
    summary:
      'Open a leveraged position at the figures of a recent quote; the margin and fee leave the available balance',
    auth: true,
    status: 'live',
    body: openBody,
    data: positionView,
  }),
  closeOptions: call({
    method: 'POST',
    path: '/order/closeOptions',
    summary: 'Close one of my open positions at the market',
    auth: true,
    status: 'live',
    body: orderIdBody,
    data: positionView,
  }),
  updateOptions: call({
    method: 'POST',
    path: '/order/updateOptions',
    summary: 'Change the stop loss, take profit and trailing stop of one of my open positions',
    auth: true,
    status: 'live',
    body: updateOrderBody,
    data: positionView,
  }),
  getPosition: call({
    method: 'GET',
    path: '/order/getOptionsOrderById/:id',
    summary: 'One of my positions',
    auth: true,
    status: 'live',
    params: orderIdParams,
    data: positionView,
  }),
  listPositions: call({
    method: 'GET',
    path: '/order/listOptionsOrder',
    summary: 'My positions, open or closed, newest first, a page at a time',
    auth: true,
    status: 'live',
    query: orderListQuery,
    data: orderPage,
  }),
} as const satisfies Record<string, CallDefinition>;
