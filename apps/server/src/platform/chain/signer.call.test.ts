import { keccak256, parseTransaction, recoverTransactionAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, DEV_CHAIN_ID } from './accounts.ts';
import { devSigner } from './development.ts';
import { localCallSigner } from './signer.ts';

const contract = '0x00000000000000000000000000000000000000c0';
const call = { to: contract, data: '0xa9059cbb00ff', gas: 123_456n, nonce: 5 } as const;

describe('the contract-call signer (NFT custody)', () => {
  it('signs exactly the call asked, as its account, the same call to the same transaction', async () => {
    const signer = localCallSigner(devSigner('nftCustody'), DEV_CHAIN_ID);
    expect(signer.address).toBe(DEV_ACCOUNTS.nftCustody.address);
    const { raw, hash } = await signer.signCall(call);
    expect(hash).toBe(keccak256(raw));
    const tx = parseTransaction(raw);
    expect(tx).toMatchObject({
      chainId: DEV_CHAIN_ID,
      nonce: 5,
      gas: 123_456n,
      to: contract,
      data: call.data,
    });
    expect(tx.value ?? 0n).toBe(0n);
    expect((await recoverTransactionAddress({ serializedTransaction: raw as never })).toLowerCase()).toBe(
      DEV_ACCOUNTS.nftCustody.address,
    );
    expect((await signer.signCall(call)).raw).toBe(raw);
  });

  it('refuses a malformed call', async () => {
    const signer = localCallSigner(devSigner('nftCustody'), DEV_CHAIN_ID);
    await expect(signer.signCall({ ...call, to: contract.toUpperCase() as never })).rejects.toThrow();
    await expect(signer.signCall({ ...call, data: '0xabc' })).rejects.toThrow();
    await expect(signer.signCall({ ...call, gas: 0n })).rejects.toThrow();
    await expect(signer.signCall({ ...call, nonce: -1 })).rejects.toThrow();
  });
});
