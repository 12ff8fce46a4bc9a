import type { PendingTicketBody } from '@swx/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import { smallLong } from '../support/orders.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

/** A price `percent` % of `price`, at its decimals. */
function percentOf(price: string, percent: bigint): string {
  const decimals = price.split('.')[1]?.length ?? 0;
  const digits = ((BigInt(price.replace('.', '')) * percent) / 100n).toString().padStart(decimals + 1, '0');
  return decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
}

describe('pending entry orders over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let alice: CustomerApi;
  let bob: CustomerApi;
  let btcId: number;

  useServer({}, (s) => ({ server, inbox } = s));
  beforeAll(async () => {
    const anonymous = customerApi(server, null, { language: 'en' });
    alice = customerApi(server, await registerByApi(server, inbox, 'alice.pending@example.com'), {
      language: 'en',
    });
    bob = customerApi(server, await registerByApi(server, inbox, 'bob.pending@example.com'), {
      language: 'en',
    });
    const crypto = await anonymous.ok('listMarketByType', { type: 2 });
    btcId = crypto.find((i) => i.code === 'BTCUSDT')?.id as number;
  });
  afterEach(() => expectLedgerSound(server), 60_000);

  const available = async (who: CustomerApi) =>
    Number((await who.ok('getBalances')).balances.find((b) => b.asset === 'USDT')?.available);

  it('places a buy limit far below the market (what it holds leaves the available balance), lists it, hides it from another customer, and cancelling releases the hold', async () => {
    const market = await alice.ok('previewOptions', smallLong(btcId));
    const level = percentOf(market.bid, 60n);
    const ticket: PendingTicketBody = {
      ...smallLong(btcId),
      type: 'limit',
      level,
      stopLoss: percentOf(level, 90n),
      takeProfit: percentOf(level, 150n),
      expiresAt: null,
    };
    const before = await available(alice);
    const figures = await alice.ok('previewPendingOrder', ticket);
    expect(Number(figures.held)).toBeGreaterThan(0);
    const placed = await alice.ok('placePendingOrder', {
      ...ticket,
      quoteId: figures.quoteId,
      requestId: crypto.randomUUID(),
    });
    expect(placed).toMatchObject({ state: 'open', type: 'limit', held: figures.held, level });
    expect(await available(alice)).toBeCloseTo(before - Number(figures.held), 6);

    const open = await alice.ok('listPendingOrders', { status: 'open' });
    expect(open.items.map((o) => o.id)).toContain(placed.id);
    expect((await alice.ok('getPendingOrder', { id: placed.id })).state).toBe('open');

    // Another customer: nothing, whatever the call.
    expect((await bob.call('getPendingOrder', { id: placed.id })).code).toBe(10028);
    expect((await bob.call('cancelPendingOrder', { id: placed.id })).code).toBe(10028);
    expect((await bob.ok('listPendingOrders', {})).items).toEqual([]);
    // A level the market has already crossed (a buy limit above the ask) is refused with 10070.
    const crossed = await alice.call('previewPendingOrder', {
      ...ticket,
      level: percentOf(market.ask, 120n),
    });
    expect(crossed.code).toBe(10070);

    const cancelled = await alice.ok('cancelPendingOrder', { id: placed.id });
    expect(cancelled.state).toBe('cancelled');
    expect(await available(alice)).toBeCloseTo(before, 6);
    const history = await alice.ok('listPendingOrders', { status: 'history' });
    expect(history.items.map((o) => [o.id, o.state])).toContainEqual([placed.id, 'cancelled']);
  });
});
