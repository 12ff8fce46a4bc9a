import { Code, ownershipMessage } from '@swx/contract';
import type { Hex } from 'viem';
import { ApiError } from '../../platform/http.ts';
import type { NetworkRow } from './wallet.repository.ts';

/**
 * Proof that an address added to the withdrawal book is the customer's own (DESIGN §2 rule 1:
 * the self-custody wallet keeps its key in the browser and sends only the public address and a
 * signature). The signer of `ownershipMessage(address, customerId)` as an EIP-191 personal message
 * is recovered from the signature and must be the address itself: a signature by any other key,
 * for another customer or for another address, is 10026 on `signature`. Only EVM addresses can
 * be proved this way. Answers the signature to keep (lowercase hex).
 */
export async function provedOwnership(
  network: Pick<NetworkRow, 'addressFormat'>,
  address: string,
  customerId: number,
  signature: string,
): Promise<string> {
  const refuse = (issue: string) => new ApiError(Code.INVALID_INPUT, [{ path: 'signature', issue }]);
  if (network.addressFormat !== 'evm') throw refuse('unsupported');
  let signer: string;
  try {
    // viem is loaded with the first ownership check, not at start.
    const { recoverMessageAddress } = await import('viem');
    signer = await recoverMessageAddress({
      message: ownershipMessage(address, customerId),
      signature: signature as Hex,
    });
  } catch {
    throw refuse('not_owner');
  }
  if (signer.toLowerCase() !== address.toLowerCase()) throw refuse('not_owner');
  return signature.toLowerCase();
}
