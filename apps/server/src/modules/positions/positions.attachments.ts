import type { Database } from '../../platform/db.ts';
import type { EntryDetail, LedgerService } from '../ledger/ledger.service.ts';
import { insertPending, type NewPending } from './pending.repository.ts';
import {
  closePositions,
  insertPositions,
  type NewPosition,
  type PositionClose,
  positionsOfEntries,
} from './positions.repository.ts';
import { orderNo, type PositionAttachments } from './positions.shared.ts';

/**
 * The positions' ledger attachments: the position an opening entry writes and the close a closing
 * entry writes, in the ledger's own transaction, so a position and its margin never disagree. The
 * customer's record names each trading entry by its order number, as the order detail does.
 */
export function positionAttachments(deps: { db: Database; ledger: LedgerService }): PositionAttachments {
  const { ledger } = deps;
  const opens = ledger.attachment<NewPosition, { id: number; openedAt: string }>('trade_margin', (tx, rows) =>
    insertPositions(
      tx,
      rows.map((r) => ({ entryId: r.entryId, position: r.data })),
    ),
  );
  const closes = ledger.attachment<PositionClose, never>('trade_pnl', async (tx, rows) => {
    await closePositions(
      tx,
      rows.map((r) => ({ entryId: r.entryId, close: r.data })),
    );
    return new Map<number, never>();
  });
  const places = ledger.holdAttachment<NewPending, number>('pending_order', (tx, rows) =>
    insertPending(tx, rows),
  );
  const describe = async (entryIds: readonly number[]) => {
    const found = new Map<number, EntryDetail>();
    for (const p of await positionsOfEntries(deps.db, entryIds)) {
      const orderNumber = orderNo(p.id);
      found.set(p.openEntryId, { orderNo: orderNumber, instrument: p.code, closeReason: null });
      if (p.closeEntryId !== null)
        found.set(p.closeEntryId, { orderNo: orderNumber, instrument: p.code, closeReason: p.closeReason });
    }
    return found;
  };
  ledger.registerDescriber('trade_margin', describe);
  ledger.registerDescriber('trade_pnl', describe);
  return { opens, closes, places };
}
