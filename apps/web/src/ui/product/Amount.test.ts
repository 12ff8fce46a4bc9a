import { amountInput } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { checkAmount } from './Amount.tsx';

// checkAmount reads the contract's pattern (money.ts AMOUNT_INPUT), not the wallet schema, so that
// an amount field does not build the wallet's schemas when a product screen loads.
describe('checkAmount', () => {
  const samples = [
    '12.5',
    ' 7 ',
    '0',
    '0.000000000000000001',
    '0.0000000000000000001',
    '123456789012345678901',
    '1e3',
    '-1',
    '1.',
    '.5',
    '1,5',
    'abc',
  ];

  it('takes as a number exactly what the server takes as an amount', () => {
    for (const typed of samples) {
      const server = amountInput.safeParse(typed.trim()).success;
      // The field reads a decimal comma as a point: '1,5' is 1.5 to it.
      if (typed === '1,5') continue;
      expect(
        checkAmount(typed, 'USDT').minor !== null || checkAmount(typed, 'ETH').minor !== null,
        typed,
      ).toBe(server);
    }
  });

  it('reads the amount in minor units and checks the range', () => {
    expect(checkAmount('12.5', 'USDT')).toEqual({ amount: '12.5', minor: 12_500_000n, problem: null });
    expect(checkAmount('1,5', 'USDT').minor).toBe(1_500_000n);
    expect(checkAmount('1e3', 'USDT').problem).toBe('invalid');
    expect(checkAmount('0', 'USDT').problem).toBe('invalid');
    expect(checkAmount('', 'USDT').problem).toBe('empty');
    expect(checkAmount('5', 'USDT', { min: '10' }).problem).toBe('below');
    expect(checkAmount('50', 'USDT', { max: '10' }).problem).toBe('above');
  });
});
