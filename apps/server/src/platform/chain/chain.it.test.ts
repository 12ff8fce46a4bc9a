import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilProcesses } from '../../../../../tests/support/chain.ts';
import type { Hex } from '../chain.ts';
import { loadConfig } from '../config.ts';
import { processAlive } from '../datalock.ts';
import { createLogger } from '../logger.ts';
import { DEV_ACCOUNTS } from './accounts.ts';
import { startAnvil } from './anvil.ts';
import { DEV_DEPOSIT_XPUB_EVM, deriveEvmAddress } from './derive.ts';
import { DEV_TOKEN_ADDRESS, ensureDevToken, FAUCET_SUPPLY, HOT_WALLET_SUPPLY } from './development.ts';
import { type OpenedChain, openChain } from './open.ts';
import { ERC20_ABI, rpcClient } from './rpc.ts';
import { feesOf, localSigner, remoteSigner } from './signer.ts';

const USDT = (units: bigint) => units * 1_000_000n;
const ETHER = (wei: bigint) => wei * 10n ** 18n;
/** Sandbox deposit addresses (the development key's children), as the deposits module derives them. */
const customer = deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 7);
const other = deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 8);

const dataDir = mkdtempSync(join(tmpdir(), 'swx-chain-'));
const config = loadConfig({ DATA_DIR: dataDir, CHAIN_BLOCK_SECONDS: '0', LOG_LEVEL: 'warn' });
const logger = createLogger(config);
let opened: OpenedChain;

/**
 * A faucet transfer once it is in a block: anvil answers the send when the transaction is in its
 * pool, and mines it a moment later (on a busy machine, after the next read).
 */
async function mined(send: Promise<Hex> | undefined): Promise<Hex> {
  const hash = await send;
  if (!hash) throw new Error('no development chain');
  for (let tries = 0; !(await opened.chain.receipt(hash)); tries++) {
    if (tries > 200) throw new Error(`${hash} was not mined`);
    await new Promise((done) => setTimeout(done, 25));
  }
  return hash;
}

async function open(): Promise<OpenedChain> {
  const result = await openChain(config, logger);
  if (!result?.dev || !result.signer) throw new Error('the embedded chain opened without its parts');
  return result;
}

beforeAll(async () => {
  opened = await open();
});
afterAll(async () => {
  await opened?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded chain', () => {
  it('has the test token deployed, the faucet and the hot wallet funded', async () => {
    const { chain } = opened;
    expect(chain.kind).toBe('embedded');
    expect(chain.chainId).toBe(31337);
    expect(chain.tokens.USDT).toBe(DEV_TOKEN_ADDRESS);
    expect(await chain.balanceOf(DEV_ACCOUNTS.faucet.address, 'USDT')).toBe(FAUCET_SUPPLY);
    expect(await chain.balanceOf(DEV_ACCOUNTS.hotWallet.address, 'USDT')).toBe(HOT_WALLET_SUPPLY);
    expect(await chain.balanceOf(DEV_ACCOUNTS.hotWallet.address, 'ETH')).toBeGreaterThan(ETHER(1000n));
    expect(await chain.balanceOf(customer, 'USDT')).toBe(0n);
  });

  it('a test deposit of USDT and of ETH is seen in `transfers`, in the block that carries it', async () => {
    const { chain, dev } = opened;
    const before = await chain.head();
    const usdt = await mined(dev?.send({ to: customer, asset: 'USDT', amount: USDT(150n) }));
    const eth = await mined(dev?.send({ to: customer, asset: 'ETH', amount: ETHER(1n) / 5n }));
    const head = await chain.head();
    const transfers = await chain.transfers(before + 1n, head);
    const mine = transfers.filter((t) => t.to === customer);
    expect(mine.map((t) => [t.asset, t.txHash, t.amount, t.from])).toEqual([
      ['USDT', usdt, USDT(150n), DEV_ACCOUNTS.faucet.address],
      ['ETH', eth, ETHER(1n) / 5n, DEV_ACCOUNTS.faucet.address],
    ]);
    expect(mine[1]?.logIndex).toBe(-1);
    for (const transfer of mine) {
      const block = await chain.block(transfer.blockNumber);
      expect(block?.hash).toBe(transfer.blockHash);
      expect((await chain.receipt(transfer.txHash))?.status).toBe('success');
    }
    expect(await chain.balanceOf(customer, 'USDT')).toBe(USDT(150n));
    expect(await chain.balanceOf(customer, 'ETH')).toBe(ETHER(1n) / 5n);
    expect(await chain.block(head + 1n)).toBeNull();
    expect(await chain.transfers(head + 1n, head)).toEqual([]);
  });

  it('mines on request; a revert to a snapshot replaces the blocks after it (a reorganisation)', async () => {
    const { chain, dev } = opened;
    await dev?.mine(3);
    const base = await chain.head();
    const snapshot = (await dev?.snapshot()) ?? '';
    const deposit = await mined(dev?.send({ to: other, asset: 'USDT', amount: USDT(42n) }));
    const height = base + 1n;
    const replaced = await chain.block(height);
    expect((await chain.transfers(height, height)).map((t) => t.txHash)).toEqual([deposit]);

    await dev?.revert(snapshot);
    expect(await chain.head()).toBe(base);
    expect(await chain.block(height)).toBeNull();
    await dev?.mine(1);
    const replacement = await chain.block(height);
    expect(replacement?.parentHash).toBe(replaced?.parentHash);
    expect(replacement?.hash).not.toBe(replaced?.hash);
    expect(await chain.transfers(height, height)).toEqual([]);
    expect(await chain.receipt(deposit)).toBeNull();
    expect(await chain.balanceOf(other, 'USDT')).toBe(0n);
    await expect(dev?.revert(snapshot)).rejects.toThrow(/no snapshot/);
  });

  it('the hot wallet signs deterministically; a broadcast twice is one transaction, with its receipt', async () => {
    const { chain, signer } = opened;
    if (!signer) throw new Error('no signer');
    expect(signer.address).toBe(DEV_ACCOUNTS.hotWallet.address);
    const nonce = await chain.nonce(signer.address);
    const transfer = { asset: 'USDT' as const, to: other, amount: USDT(7n), nonce };
    const signed = await signer.sign(transfer);
    expect(await signer.sign({ ...transfer })).toEqual(signed);
    expect(await signer.sign({ ...transfer, amount: USDT(8n) })).not.toEqual(signed);
    expect(await chain.broadcast(signed.raw)).toBe(signed.hash);
    expect(await mined(chain.broadcast(signed.raw))).toBe(signed.hash);
    const receipt = await chain.receipt(signed.hash);
    expect(receipt?.status).toBe('success');
    expect(await chain.nonce(signer.address)).toBe(nonce + 1);
    const seen = await chain.transfers(receipt?.blockNumber ?? 0n, receipt?.blockNumber ?? 0n);
    expect(seen).toEqual([
      {
        asset: 'USDT',
        txHash: signed.hash,
        logIndex: 0,
        from: signer.address,
        to: other,
        amount: USDT(7n),
        blockNumber: receipt?.blockNumber,
        blockHash: receipt?.blockHash,
      },
    ]);
    // A native withdrawal too: the transfer is seen as native (log index -1).
    const eth = await signer.sign({ asset: 'ETH', to: other, amount: 12345n, nonce: nonce + 1 });
    await mined(chain.broadcast(eth.raw));
    expect((await chain.receipt(eth.hash))?.status).toBe('success');
    expect(await chain.balanceOf(other, 'ETH')).toBe(12345n);
    // Refused before anything is signed.
    await expect(signer.sign({ ...transfer, amount: 0n })).rejects.toThrow(/positive/);
  });

  it('keeps its blocks and balances across a restart (DATA_DIR/chain), and leaves no process behind', async () => {
    const { chain } = opened;
    const head = await chain.head();
    const block = await chain.block(head);
    const pids = anvilProcesses(dataDir);
    expect(pids.length).toBeGreaterThan(0);
    await opened.close();
    await opened.close();
    for (const pid of pids) expect(processAlive(pid)).toBe(false);
    opened = await open();
    expect(await opened.chain.head()).toBe(head);
    expect((await opened.chain.block(head))?.hash).toBe(block?.hash);
    expect(await opened.chain.balanceOf(customer, 'USDT')).toBe(USDT(150n));
    expect(await opened.chain.balanceOf(other, 'USDT')).toBe(USDT(7n));
  });

  it('one embedded chain per data folder', async () => {
    await expect(openChain(config, logger)).rejects.toThrow(/in use by process/);
  });
});

describe('the test token on a fresh development chain', () => {
  it('nodes starting together deploy it once, at its fixed address, and fund the faucet and the hot wallet', async () => {
    const anvil = await startAnvil({ blockSeconds: 2 });
    try {
      const client = rpcClient(anvil.url);
      const tokens = await Promise.all([1, 2, 3].map(() => ensureDevToken(client, 31337)));
      expect(tokens).toEqual([DEV_TOKEN_ADDRESS, DEV_TOKEN_ADDRESS, DEV_TOKEN_ADDRESS]);
      expect(await client.getTransactionCount({ address: DEV_ACCOUNTS.deployer.address })).toBe(3);
      const usdt = async (address: Hex) =>
        client.readContract({
          address: DEV_TOKEN_ADDRESS,
          abi: ERC20_ABI,
          functionName: 'balanceOf',
          args: [address],
        });
      expect(await usdt(DEV_ACCOUNTS.faucet.address)).toBe(FAUCET_SUPPLY);
      expect(await usdt(DEV_ACCOUNTS.hotWallet.address)).toBe(HOT_WALLET_SUPPLY);
      // Started again: nothing more is sent.
      expect(await ensureDevToken(client, 31337)).toBe(DEV_TOKEN_ADDRESS);
      expect(await client.getTransactionCount({ address: DEV_ACCOUNTS.deployer.address })).toBe(3);
      await expect(ensureDevToken(client, 31337, other)).rejects.toThrow(
        /no contract at CHAIN_DEV_TOKEN_USDT/,
      );
    } finally {
      await anvil.stop();
    }
  });
});

describe('a real chain’s signer service', () => {
  let service: Server;
  let url = '';
  /** What the service signs: the transfer asked, or, told to lie, another amount. */
  let lie = false;

  beforeAll(async () => {
    const hotWallet = privateKeyToAccount(DEV_ACCOUNTS.hotWallet.privateKey);
    const sign = localSigner(hotWallet, opened.chain.chainId, opened.chain.tokens.USDT);
    service = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        if (request.headers.authorization !== 'Bearer token-1' || request.url !== '/v1/sign') {
          response.writeHead(401).end();
          return;
        }
        const input = JSON.parse(body) as {
          asset: 'USDT';
          to: Hex;
          amount: string;
          nonce: number;
          maxFeePerGas?: string;
          maxPriorityFeePerGas?: string;
        };
        // A replacement asks for fees: the honest service pays them, the lying one its usual.
        const fees =
          input.maxFeePerGas && input.maxPriorityFeePerGas && !lie
            ? {
                maxFeePerGas: BigInt(input.maxFeePerGas),
                maxPriorityFeePerGas: BigInt(input.maxPriorityFeePerGas),
              }
            : undefined;
        void sign
          .sign({
            asset: input.asset,
            to: input.to,
            nonce: input.nonce,
            amount: BigInt(input.amount) + (lie && !input.maxFeePerGas ? 1n : 0n),
            ...(fees ? { fees } : {}),
          })
          .then(({ raw }) =>
            response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ raw })),
          );
      });
    });
    await new Promise<void>((done) => service.listen(0, '127.0.0.1', done));
    const address = service.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/`;
  });
  afterAll(() => new Promise<void>((done) => service.close(() => done())));

  const remote = (token = 'token-1', address: Hex = DEV_ACCOUNTS.hotWallet.address) =>
    remoteSigner({ url, token, address, chainId: opened.chain.chainId, tokenUsdt: opened.chain.tokens.USDT });

  it('is asked over HTTP and its transaction checked before it is used', async () => {
    const nonce = await opened.chain.nonce(DEV_ACCOUNTS.hotWallet.address);
    const transfer = { asset: 'USDT' as const, to: customer, amount: USDT(3n), nonce };
    const signed = await remote().sign(transfer);
    expect(await mined(opened.chain.broadcast(signed.raw))).toBe(signed.hash);
    expect((await opened.chain.receipt(signed.hash))?.status).toBe('success');

    lie = true;
    await expect(remote().sign({ ...transfer, nonce: nonce + 1 })).rejects.toThrow(/call data differ/);
    lie = false;
    await expect(remote('wrong').sign(transfer)).rejects.toThrow(/HTTP 401/);
    await expect(remote('token-1', DEV_ACCOUNTS.faucet.address).sign(transfer)).rejects.toThrow(
      /signing address differ/,
    );
    // A replacement at a higher fee: the fees asked are paid, or the answer is refused.
    const fees = { maxFeePerGas: 60_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n };
    const replacement = await remote().sign({ ...transfer, nonce: nonce + 1, fees });
    expect(feesOf(replacement.raw)).toEqual(fees);
    lie = true;
    await expect(remote().sign({ ...transfer, nonce: nonce + 1, fees })).rejects.toThrow(/fees differ/);
    lie = false;
  });
});
