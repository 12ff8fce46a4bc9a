import {
  encodeFunctionData,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerializableEIP1559,
} from 'viem';
import type {
  CallSigner,
  CallToSign,
  ChainAsset,
  Hex,
  TransferToSign,
  TxFees,
  WithdrawalSigner,
} from '../chain.ts';
import type { TxSigner } from './development.ts';
import { ERC20_ABI } from './rpc.ts';

/**
 * Fixed fee fields of the development chains' transactions, so that the same transfer always signs
 * to the same transaction (a retried withdrawal is the same transaction, never a second one). The
 * cap is far above anvil's base fee (1 gwei at genesis, lower on empty blocks).
 */
export const DEV_FEES = { maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n } as const;
/** Gas limits: an ERC-20 transfer (a new holder's slot included), a native send (room for a receive()). */
export const GAS = { USDT: 100_000n, ETH: 50_000n } as const;

/** The fee fields of a signed EIP-1559 transaction (a legacy one: its gas price as both). */
export function feesOf(raw: Hex): TxFees {
  const tx = parseTransaction(raw);
  const cap = tx.maxFeePerGas ?? tx.gasPrice ?? 0n;
  return { maxFeePerGas: cap, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? cap };
}

function checkTransfer(transfer: TransferToSign): void {
  if (!/^0x[0-9a-f]{40}$/.test(transfer.to)) throw new Error('the recipient must be a lowercase address');
  if (transfer.amount <= 0n) throw new Error('the amount must be positive');
  if (!Number.isSafeInteger(transfer.nonce) || transfer.nonce < 0) throw new Error('bad nonce');
}

/** The call a transfer of `asset` makes: the token's transfer(to, amount), or a plain value send. */
export function transferCall(
  asset: ChainAsset,
  token: Hex,
  to: Hex,
  amount: bigint,
): { to: Hex; value: bigint; data: Hex | undefined } {
  return asset === 'ETH'
    ? { to, value: amount, data: undefined }
    : {
        to: token,
        value: 0n,
        data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [to, amount] }),
      };
}

/** Signs with a key held in this process: development chains only (a published development key). */
export function localSigner(account: TxSigner, chainId: number, token: Hex): WithdrawalSigner {
  return {
    address: account.address.toLowerCase() as Hex,
    async sign(transfer) {
      checkTransfer(transfer);
      const tx: TransactionSerializableEIP1559 = {
        type: 'eip1559',
        chainId,
        nonce: transfer.nonce,
        gas: GAS[transfer.asset],
        ...(transfer.fees ?? DEV_FEES),
        ...transferCall(transfer.asset, token, transfer.to, transfer.amount),
      };
      const raw = await account.signTransaction(tx);
      return { raw, hash: keccak256(raw) };
    },
  };
}

function checkCall(call: CallToSign): void {
  if (!/^0x[0-9a-f]{40}$/.test(call.to)) throw new Error('the contract must be a lowercase address');
  if (!/^0x([0-9a-f]{2})+$/.test(call.data)) throw new Error('the call data must be lowercase hex bytes');
  if (call.gas <= 0n || call.gas > 10_000_000n) throw new Error('bad gas limit');
  if (!Number.isSafeInteger(call.nonce) || call.nonce < 0) throw new Error('bad nonce');
}

/** Signs contract calls (no value) with a key held in this process: development chains only. */
export function localCallSigner(account: TxSigner, chainId: number): CallSigner {
  return {
    address: account.address.toLowerCase() as Hex,
    async signCall(call) {
      checkCall(call);
      const raw = await account.signTransaction({
        type: 'eip1559',
        chainId,
        nonce: call.nonce,
        gas: call.gas,
        ...DEV_FEES,
        to: call.to,
        value: 0n,
        data: call.data,
      });
      return { raw, hash: keccak256(raw) };
    },
  };
}

/**
 * A real chain's withdrawal signer: a service outside this server that holds the hot wallet's key
 * (an HSM, a custody API behind a small adapter). POST <url>/sign, `Authorization: Bearer <token>`,
 * body {chainId, asset, token, to, amount (decimal string, minor units), nonce}; it answers
 * {raw: 0x… signed transaction} with fee fields of its choosing. The answer is not trusted: it
 * must be a transaction of this chain with that nonce, making exactly the transfer asked, signed
 * by the configured hot wallet address. The same input should sign to the same transaction (the
 * service's duty: a retried withdrawal must not become a second transfer). A replacement of an
 * unmined transaction at a higher fee (same nonce) adds maxFeePerGas and maxPriorityFeePerGas
 * (decimal strings, wei): the answer must pay at least those.
 */
export function remoteSigner(options: {
  url: string;
  token: string;
  address: Hex;
  chainId: number;
  tokenUsdt: Hex;
  fetch?: typeof fetch;
}): WithdrawalSigner {
  const send = options.fetch ?? fetch;
  return {
    address: options.address,
    async sign(transfer) {
      checkTransfer(transfer);
      const response = await send(
        new URL('sign', options.url.endsWith('/') ? options.url : `${options.url}/`),
        {
          method: 'POST',
          headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            chainId: options.chainId,
            asset: transfer.asset,
            token: options.tokenUsdt,
            to: transfer.to,
            amount: transfer.amount.toString(),
            nonce: transfer.nonce,
            ...(transfer.fees
              ? {
                  maxFeePerGas: transfer.fees.maxFeePerGas.toString(),
                  maxPriorityFeePerGas: transfer.fees.maxPriorityFeePerGas.toString(),
                }
              : {}),
          }),
          signal: AbortSignal.timeout(30_000),
        },
      );
      if (!response.ok) throw new Error(`the withdrawal signer answered HTTP ${response.status}`);
      const body = (await response.json()) as { raw?: unknown };
      if (typeof body.raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(body.raw))
        throw new Error('the withdrawal signer answered no signed transaction');
      const raw = body.raw as Hex;
      const tx = parseTransaction(raw);
      const expected = transferCall(transfer.asset, options.tokenUsdt, transfer.to, transfer.amount);
      const signer = (await recoverTransactionAddress({ serializedTransaction: raw as never })).toLowerCase();
      const problems = [
        tx.chainId !== options.chainId && 'chain id',
        tx.nonce !== transfer.nonce && 'nonce',
        tx.to?.toLowerCase() !== expected.to && 'recipient',
        (tx.value ?? 0n) !== expected.value && 'value',
        (tx.data && tx.data !== '0x' ? tx.data.toLowerCase() : undefined) !== expected.data && 'call data',
        signer !== options.address && 'signing address',
        transfer.fees &&
          (feesOf(raw).maxFeePerGas < transfer.fees.maxFeePerGas ||
            feesOf(raw).maxPriorityFeePerGas < transfer.fees.maxPriorityFeePerGas) &&
          'fees',
      ].filter(Boolean);
      if (problems.length > 0)
        throw new Error(`the withdrawal signer signed another transaction (${problems.join(', ')} differ)`);
      return { raw, hash: keccak256(raw) };
    },
  };
}
