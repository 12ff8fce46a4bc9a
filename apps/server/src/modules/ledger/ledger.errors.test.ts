import { Code } from '@swx/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installApiConventions } from '../../platform/http.ts';
import { LedgerError, type LedgerErrorCode, ledgerErrorCode } from './ledger.types.ts';

/** The one mapping of ledger refusals to catalogue codes, and what a caller receives over HTTP. */
describe('ledger refusals as catalogue codes', () => {
  it('maps the refusals a customer can meet; faults of the calling code map to nothing', () => {
    const expected: Record<LedgerErrorCode, number | null> = {
      insufficient_funds: Code.INSUFFICIENT_BALANCE,
      positions_open: Code.POSITIONS_OPEN,
      unavailable: Code.SERVICE_UNAVAILABLE,
      idempotency_conflict: Code.INVALID_INPUT,
      unknown_account: null,
      unknown_hold: null,
      hold_not_pending: null,
      invalid_request: null,
    };
    for (const [reason, code] of Object.entries(expected) as [LedgerErrorCode, number | null][]) {
      expect(ledgerErrorCode(reason)?.code ?? null, reason).toBe(code);
      expect(new LedgerError(reason, 'x').apiCode, reason).toBe(code);
    }
    expect(ledgerErrorCode('idempotency_conflict')?.data).toEqual([{ path: 'requestId', issue: 'in_use' }]);
  });

  it('answers a refusal that reaches the API with its code (a full queue: 10031, HTTP 503); a fault with 10030', async () => {
    const app = Fastify({ logger: false });
    installApiConventions(app, async () => null);
    app.get('/swx/customer/full', async () => {
      throw new LedgerError('unavailable', 'the ledger queue is full');
    });
    app.get('/swx/customer/poor', async () => {
      throw new LedgerError('insufficient_funds', 'account 1 has insufficient available balance');
    });
    app.get('/swx/customer/fault', async () => {
      throw new LedgerError('unknown_account', 'account 9 does not exist');
    });
    const full = await app.inject({ url: '/swx/customer/full', headers: { 'accept-language': 'de' } });
    expect(full.statusCode).toBe(503);
    expect(full.json()).toMatchObject({ code: 10031, data: null });
    const poor = await app.inject({ url: '/swx/customer/poor' });
    expect(poor.statusCode).toBe(200);
    expect(poor.json()).toMatchObject({ code: 10011 });
    const fault = await app.inject({ url: '/swx/customer/fault' });
    expect(fault.statusCode).toBe(500);
    expect(fault.json()).toMatchObject({ code: 10030 });
    // The message of a fault stays in the log, never in the answer.
    expect(fault.body).not.toContain('account 9');
    await app.close();
  });
});
