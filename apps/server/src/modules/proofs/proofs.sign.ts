import { createPrivateKey, createPublicKey, sign } from 'node:crypto';

/** Ed25519 from a 32-byte seed (the `proof-signing` key of platform/keys.ts): raw public key and signatures in hex. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export type RootSigner = { publicKey: string; sign: (message: string) => string };

export function rootSigner(seed: Buffer): RootSigner {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return {
    publicKey: spki.subarray(spki.length - 32).toString('hex'),
    sign: (message) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('hex'),
  };
}
