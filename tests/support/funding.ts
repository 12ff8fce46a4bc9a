import type { Session } from './accounts.ts';
import { customerApi, staffApi } from './api.ts';
import { pngImage } from './images.ts';
import type { RunningServer } from './server.ts';
import { uploadedId } from './uploads.ts';

/**
 * Live USDT for a customer as the platform books a declared deposit: the customer declares it on
 * their deposit address with a transfer proof (`hashByte` makes its transaction hash, one per
 * deposit), and staff of the money duty claim and approve it.
 */
export async function fundLive(
  server: RunningServer,
  customer: Session,
  staffToken: string,
  amount: string,
  hashByte = 'cd',
): Promise<void> {
  const me = customerApi(server, customer, { book: 'live' });
  const staff = staffApi(server, staffToken);
  const { address } = await me.ok('getDepositAddress', { network: 'USDT-EVM' });
  const proof = await uploadedId(server.baseUrl, customer.token, 'deposit_proof', await pngImage());
  const declared = await me.ok('recharge', {
    network: 'USDT-EVM',
    amount,
    txHash: `0x${hashByte.repeat(32)}`,
    lastSix: '654321',
    proof,
    address,
  });
  await staff.ok('claimDeposit', { id: declared.id });
  await staff.ok('approveDeposit', { id: declared.id });
}
