import { describe, expect, it } from 'vitest';
import { parseOperatorCommand } from './commands.ts';

const TO = '0x1111111111111111111111111111111111111111';

describe('chain:send’s words', () => {
  it('takes an address, an asset and a decimal amount in the asset’s units', () => {
    expect(
      parseOperatorCommand('chain:send', [
        '--to',
        TO.toUpperCase().replace('0X', '0x'),
        '--asset',
        'usdt',
        '--amount',
        '150',
      ]),
    ).toEqual({
      name: 'chain:send',
      to: TO,
      asset: 'USDT',
      amount: 150_000_000n,
    });
    expect(parseOperatorCommand('chain:send', ['--amount', '0.2', '--asset', 'ETH', '--to', TO])).toEqual({
      name: 'chain:send',
      to: TO,
      asset: 'ETH',
      amount: 200_000_000_000_000_000n,
    });
  });

  it('answers the usage line to anything else, never a rounded amount', () => {
    for (const args of [
      [],
      ['--to', '0x12', '--asset', 'USDT', '--amount', '1'],
      ['--to', TO, '--asset', 'DOGE', '--amount', '1'],
      ['--to', TO, '--asset', 'USDT', '--amount', '1.0000001'],
      ['--to', TO, '--asset', 'USDT', '--amount', '0'],
      ['--to', TO, '--asset', 'USDT', '--amount', '-5'],
      ['--to', TO, '--asset', 'USDT', '--amount', '1e6'],
    ]) {
      const parsed = parseOperatorCommand('chain:send', args);
      expect('usage' in parsed && parsed.usage, args.join(' ')).toContain('usage: npm run chain:send');
    }
  });
});

describe('clock:advance’s words', () => {
  it('takes a duration, and answers the usage line to anything else', () => {
    expect(parseOperatorCommand('clock:advance', ['--by', '1d'])).toEqual({
      name: 'clock:advance',
      ms: 86_400_000,
    });
    for (const args of [[], ['--by'], ['--by', '1 day'], ['--by', '-1h']])
      expect(parseOperatorCommand('clock:advance', args)).toHaveProperty('usage');
  });
});
