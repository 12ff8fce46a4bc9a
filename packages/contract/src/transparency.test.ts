import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type DonationLeafFields,
  donationLeafBytes,
  donationLeafProblem,
  treeHeadMessage,
  verifyTreeHead,
} from './transparency.ts';

const LEAF: DonationLeafFields = {
  seq: 12,
  kind: 'sale',
  dropId: 7,
  tokenId: '1001',
  asset: 'USDT',
  amount: '250000000',
  txHash: null,
  at: '2027-05-01T09:00:00.000Z',
};

describe('the donation leaf encoding', () => {
  it('is the tag and the fields in order, each with a two-byte length, null as empty', () => {
    const texts = ['swx nft donation v1', '12', 'sale', '7', '1001', 'USDT', '250000000', '', LEAF.at];
    const expected = Buffer.concat(
      texts.map((t) => Buffer.concat([Buffer.from([0, Buffer.byteLength(t)]), Buffer.from(t)])),
    );
    expect(Buffer.from(donationLeafBytes(LEAF)).toString('hex')).toBe(expected.toString('hex'));
  });

  it('has one form per donation: anything else is refused', () => {
    expect(donationLeafProblem(LEAF)).toBeNull();
    const bad: [Partial<DonationLeafFields>, string][] = [
      [{ seq: -1 }, 'seq'],
      [{ dropId: 0 }, 'dropId'],
      [{ tokenId: '01' }, 'tokenId'],
      [{ tokenId: (1n << 256n).toString() }, 'tokenId'],
      [{ asset: 'usdt' }, 'asset'],
      [{ amount: '0' }, 'amount'],
      [{ amount: '1.5' }, 'amount'],
      [{ txHash: `0x${'AB'.repeat(32)}` }, 'txHash'],
      [{ at: '2027-05-01T09:00:00Z' }, 'at'],
      [{ at: '2027-02-30T09:00:00.000Z' }, 'at'],
    ];
    for (const [change, problem] of bad) {
      expect(donationLeafProblem({ ...LEAF, ...change })).toBe(problem);
      expect(() => donationLeafBytes({ ...LEAF, ...change })).toThrow(problem);
    }
  });
});

describe('a signed tree head', () => {
  it('verifies with its Ed25519 key over its message, and not once changed', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
    const head = { treeSize: 40, rootHash: 'ab'.repeat(32), timestamp: 1_809_000_000_000 };
    expect(treeHeadMessage(head)).toBe(
      `swx nft donation log tree head v1\ntree_size 40\nroot ${'ab'.repeat(32)}\ntimestamp 1809000000000`,
    );
    const signature = sign(null, Buffer.from(treeHeadMessage(head)), privateKey).toString('hex');
    expect(verifyTreeHead({ ...head, signature }, raw)).toBe(true);
    expect(verifyTreeHead({ ...head, treeSize: 41, signature }, raw)).toBe(false);
    expect(verifyTreeHead({ ...head, timestamp: head.timestamp + 1, signature }, raw)).toBe(false);
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
    expect(verifyTreeHead({ ...head, signature }, other.subarray(-32).toString('hex'))).toBe(false);
    expect(verifyTreeHead({ ...head, signature: 'zz' }, raw)).toBe(false);
  });
});
