import { describe, expect, it } from 'vitest';
import { valueInUsdtMinor } from './ledger.routes.ts';

describe('value in USDT, integers only', () => {
  it('prices BTC, ETH and USDC balances without floating point', () => {
    // 0.015 BTC (1,500,000 satoshi) at 83,576.78 → 1,253.6517 USDT
    expect(valueInUsdtMinor(1_500_000n, 8, '83576.78')).toBe(1_253_651_700n);
    // 0.2 ETH (2e17 wei) at 3,000.50 → 600.10 USDT
    expect(valueInUsdtMinor(200_000_000_000_000_000n, 18, '3000.50')).toBe(600_100_000n);
    // 10 USDC at 0.9998 → 9.998 USDT
    expect(valueInUsdtMinor(10_000_000n, 6, '0.9998')).toBe(9_998_000n);
    // 1 wei at 3,000 rounds down to 0
    expect(valueInUsdtMinor(1n, 18, '3000')).toBe(0n);
  });
});
