import { describe, expect, it } from 'vitest';
import { checksumAddress, shownEvmAddress } from './evmAddress.ts';

// The test vectors of EIP-55 itself (all caps, all lower, and mixed).
const VECTORS = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EVM addresses (EIP-55)', () => {
  it('gives each of the EIP’s addresses its checksummed form, from any case', () => {
    for (const vector of VECTORS) {
      expect(checksumAddress(vector.toLowerCase())).toBe(vector);
      expect(checksumAddress(`0x${vector.slice(2).toUpperCase()}`)).toBe(vector);
    }
  });

  it('shows an EVM address checksummed and any other text as it is', () => {
    expect(shownEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    expect(shownEvmAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    );
    expect(shownEvmAddress('0x1234')).toBe('0x1234');
  });
});
