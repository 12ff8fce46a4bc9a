import {
  encodeFunctionData,
  getContractAddress,
  keccak256,
  type LocalAccount,
  type PublicClient,
  parseAbi,
  type TransactionSerializableEIP1559,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainAsset, DevelopmentChain, Hex } from '../chain.ts';
import { DEV_ACCOUNTS, type DevRole } from './accounts.ts';
import { broadcastRaw } from './rpc.ts';
import { DEV_FEES, GAS, transferCall } from './signer.ts';
import artifact from './TestUSDT.json' with { type: 'json' };

/** What the faucet holds after the token is deployed: a billion test USDT (6 decimals). */
export const FAUCET_SUPPLY = 1_000_000_000n * 1_000_000n;
/** And the hot wallet, which pays withdrawals: ten million. */
export const HOT_WALLET_SUPPLY = 10_000_000n * 1_000_000n;
const MINT_ABI = parseAbi(['function mint(address to, uint256 value)']);
const DEPLOY_GAS = 1_500_000n;
const MINT_GAS = 100_000n;

/** Signs transactions as an account: a development account here, made on first use. */
export type TxSigner = {
  address: Hex;
  signTransaction(tx: TransactionSerializableEIP1559): Promise<Hex>;
};

/** A development account; the viem account is made at its first signature (the curve set-up costs time). */
export function devSigner(role: DevRole): TxSigner {
  let account: LocalAccount | null = null;
  return {
    address: DEV_ACCOUNTS[role].address,
    signTransaction(tx) {
      account ??= privateKeyToAccount(DEV_ACCOUNTS[role].privateKey);
      return account.signTransaction(tx);
    },
  };
}

/** The test token's address on a development chain: the deployer's first contract (nonce 0). */
export const DEV_TOKEN_ADDRESS = getContractAddress({
  from: DEV_ACCOUNTS.deployer.address,
  nonce: 0n,
}).toLowerCase() as Hex;

async function signed(
  account: TxSigner,
  chainId: number,
  nonce: number,
  call: { to?: Hex; value?: bigint; data?: Hex; gas: bigint },
): Promise<Hex> {
  const tx: TransactionSerializableEIP1559 = { type: 'eip1559', chainId, nonce, ...DEV_FEES, ...call };
  return account.signTransaction(tx);
}

const SETUP_TRANSACTIONS = 3;

/**
 * Makes sure the development chain has the test token at its deterministic address: deployed by the
 * deployer's nonce-0 transaction, a billion minted to the faucet (nonce 1) and ten million to the
 * hot wallet (nonce 2), all signed with fixed fields, so nodes starting together on one chain send
 * the same transactions (a repeat is no error). What a crash left unsent is sent at the next start.
 * Mines a block at once rather than wait for the interval. Answers the token's address.
 * `expected`: a token someone else deployed (CHAIN_DEV_TOKEN_USDT), only checked.
 */
export async function ensureDevToken(client: PublicClient, chainId: number, expected?: Hex): Promise<Hex> {
  const token = expected ?? DEV_TOKEN_ADDRESS;
  const deployer = devSigner('deployer');
  const [code, mined] = await Promise.all([
    client.getCode({ address: token }),
    client.getTransactionCount({ address: deployer.address, blockTag: 'latest' }),
  ]);
  const deployed = code !== undefined && code !== '0x';
  if (token !== DEV_TOKEN_ADDRESS || mined >= SETUP_TRANSACTIONS) {
    if (deployed) return token;
    throw new Error(
      expected
        ? `no contract at CHAIN_DEV_TOKEN_USDT ${expected} on the development chain`
        : `the development deployer ${deployer.address} has sent transactions but no token is at ${token}: ` +
            'start a fresh development chain, or set CHAIN_DEV_TOKEN_USDT',
    );
  }
  const raws = [
    await signed(deployer, chainId, 0, { data: artifact.bytecode as Hex, gas: DEPLOY_GAS }),
    await signed(deployer, chainId, 1, {
      to: token,
      data: encodeMint(DEV_ACCOUNTS.faucet.address, FAUCET_SUPPLY),
      gas: MINT_GAS,
    }),
    await signed(deployer, chainId, 2, {
      to: token,
      data: encodeMint(DEV_ACCOUNTS.hotWallet.address, HOT_WALLET_SUPPLY),
      gas: MINT_GAS,
    }),
  ].slice(mined);
  for (const raw of raws) await broadcastRaw(client, raw);
  // Interval mining would make the start wait for the next block: mine now (anvil and Hardhat).
  await client.request({ method: 'evm_mine' as never, params: [] as never }).catch(() => undefined);
  for (const raw of raws) {
    const hash = keccak256(raw);
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`the test token's setup transaction ${hash} reverted`);
  }
  return token;
}

function encodeMint(to: Hex, amount: bigint): Hex {
  return encodeFunctionData({ abi: MINT_ABI, functionName: 'mint', args: [to, amount] });
}

/**
 * The operator's test deposits and the tests' blocks and reorganisations, on anvil (or Hardhat):
 * sends come from the faucet account, one at a time (each takes the faucet's next nonce).
 */
export class AnvilDevelopment implements DevelopmentChain {
  private queue: Promise<unknown> = Promise.resolve();

  private readonly client: PublicClient;
  private readonly chainId: number;
  private readonly faucet: TxSigner;
  private readonly token: Hex;

  constructor(client: PublicClient, chainId: number, faucet: TxSigner, token: Hex) {
    this.client = client;
    this.chainId = chainId;
    this.faucet = faucet;
    this.token = token;
  }

  send(input: { to: Hex; asset: ChainAsset; amount: bigint }): Promise<Hex> {
    if (!/^0x[0-9a-fA-F]{40}$/.test(input.to)) return Promise.reject(new Error('not an address'));
    if (input.amount <= 0n) return Promise.reject(new Error('the amount must be positive'));
    const next = this.queue.then(async () => {
      const nonce = await this.client.getTransactionCount({
        address: this.faucet.address,
        blockTag: 'pending',
      });
      const raw = await signed(this.faucet, this.chainId, nonce, {
        gas: GAS[input.asset],
        ...transferCall(input.asset, this.token, input.to.toLowerCase() as Hex, input.amount),
      });
      return this.client.sendRawTransaction({ serializedTransaction: raw });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async mine(blocks: number): Promise<void> {
    if (!Number.isInteger(blocks) || blocks < 1) throw new Error('mine at least one block');
    await this.rpc('anvil_mine', [toHex(blocks)]);
  }

  async snapshot(): Promise<string> {
    return String(await this.rpc('evm_snapshot', []));
  }

  async revert(id: string): Promise<void> {
    if ((await this.rpc('evm_revert', [id])) !== true) throw new Error(`no snapshot ${id} to revert to`);
  }

  private rpc(method: string, params: unknown[]): Promise<unknown> {
    return this.client.request({ method: method as never, params: params as never });
  }
}
