import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { assetsMessage, type ProofAssets } from '@swx/contract';
import { checksumAddress } from '@swx/contract/evmAddress';
import { DEV_ACCOUNTS, DEV_MNEMONIC } from '../../platform/chain/accounts.ts';
import { DEV_DEPOSIT_XPUB_EVM } from '../../platform/chain/derive.ts';
import { CHAIN_ASSETS, type Chain, type ChainAsset, type Hex } from '../../platform/chain.ts';
import type { Platform } from '../../platform/module.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import type { AssetsReader } from './proofs.service.ts';

/** How many balances are read from the node at once. */
const AT_ONCE = 50;

/**
 * Proof of assets on the platform's EVM chain: the hot wallet and customers' deposit addresses
 * (never swept) read at one block (the head when the day's first asset is read), and, when the
 * platform holds an address's key (the development chain's published keys: the sandbox), an
 * EIP-191 signature of `assetsMessage` by that address. Null without a chain.
 */
export function chainAssets(
  platform: Pick<Platform, 'chain'> & { config: { depositXpubs: { evm: string } } },
  wallet: Pick<WalletService, 'deposits'>,
): AssetsReader | null {
  const opened = platform.chain;
  if (!opened) return null;
  const { chain, signer } = opened;
  const sandbox = chain.kind !== 'external';
  const depositRoot =
    sandbox && platform.config.depositXpubs.evm === DEV_DEPOSIT_XPUB_EVM
      ? // BIP-39's seed of the published mnemonic (ASCII words: NFKD changes nothing).
        HDKey.fromMasterSeed(pbkdf2Sync(DEV_MNEMONIC, 'mnemonic', 2048, 64, 'sha512')).derive(
          "m/44'/60'/0'/0",
        )
      : null;
  const blocks = new Map<string, Promise<{ number: bigint; hash: string }>>();
  const blockOf = (day: string) => {
    let found = blocks.get(day);
    if (!found) {
      found = chain
        .head()
        .then(async (number) => ({ number, hash: (await chain.block(number))?.hash ?? '' }));
      blocks.set(day, found);
    }
    return found;
  };
  const keyOf = (role: 'hot_wallet' | 'deposit', address: string, customerId: number | null): Hex | null => {
    if (!sandbox) return null;
    if (role === 'hot_wallet')
      return address.toLowerCase() === DEV_ACCOUNTS.hotWallet.address
        ? DEV_ACCOUNTS.hotWallet.privateKey
        : null;
    const key = depositRoot && customerId !== null ? depositRoot.deriveChild(customerId).privateKey : null;
    return key ? (`0x${Buffer.from(key).toString('hex')}` as Hex) : null;
  };
  return async (day, asset, customerIds): Promise<ProofAssets> => {
    if (!(CHAIN_ASSETS as readonly string[]).includes(asset))
      return {
        chain: 'none',
        chainId: null,
        block: null,
        blockHash: null,
        totalMinor: '0',
        message: null,
        addresses: [],
      };
    const block = await blockOf(day);
    const message = assetsMessage(day, asset, String(block.number));
    const owned: Owned[] = [];
    if (signer) owned.push({ role: 'hot_wallet', address: signer.address, customerId: null });
    for (const id of customerIds) {
      const address = await wallet.deposits.addressOf(id, 'evm');
      if (address) owned.push({ role: 'deposit', address, customerId: id });
    }
    const addresses = await readAt(chain, owned, asset as ChainAsset, block.number, async (o) => {
      const key = keyOf(o.role, o.address, o.customerId);
      return key ? signMessage(key, message) : null;
    });
    return {
      chain: chain.kind,
      chainId: chain.chainId,
      block: String(block.number),
      blockHash: block.hash,
      totalMinor: String(addresses.reduce((sum, a) => sum + BigInt(a.amountMinor), 0n)),
      message,
      addresses,
    };
  };
}

type Owned = { role: 'hot_wallet' | 'deposit'; address: string; customerId: number | null };

/** Each address's balance at one block (a few at a time), deposit addresses holding nothing left out, each signed when it can be. */
async function readAt(
  chain: Chain,
  owned: readonly Owned[],
  asset: ChainAsset,
  block: bigint,
  signOf: (o: Owned) => Promise<string | null>,
): Promise<ProofAssets['addresses']> {
  const addresses: ProofAssets['addresses'] = [];
  for (let from = 0; from < owned.length; from += AT_ONCE) {
    const part = owned.slice(from, from + AT_ONCE);
    const amounts = await Promise.all(part.map((o) => chain.balanceOf(o.address as Hex, asset, block)));
    for (const [i, o] of part.entries()) {
      const amount = amounts[i] ?? 0n;
      if (amount === 0n && o.role === 'deposit') continue;
      addresses.push({
        role: o.role,
        // EIP-55, as every EVM address the platform shows.
        address: checksumAddress(o.address),
        amountMinor: String(amount),
        signature: await signOf(o),
      });
    }
  }
  return addresses;
}

/** An EIP-191 signature of `message` by `key`; viem's accounts are loaded when a proof is first signed. */
async function signMessage(key: Hex, message: string): Promise<Hex> {
  const { privateKeyToAccount } = await import('viem/accounts');
  return privateKeyToAccount(key).signMessage({ message });
}
