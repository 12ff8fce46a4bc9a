import type { Queryable } from '../../platform/db.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { writeBatch } from './ledger.batch.repository.ts';
import { type Accepted, holdKeyOf, keyOf, type Pending, type Written } from './ledger.operations.ts';
import type { AttachmentChannel, HoldTarget } from './ledger.types.ts';

/*
 * The end of a ledger batch: everything accepted written in one statement, then each attachment
 * kind's rows and the batch's audit row, in the batch's transaction.
 */

/** Writes everything accepted in one statement, then the attachments and the batch's audit row. */
export async function writeAccepted(
  tx: Queryable,
  audit: Pick<AuditService, 'appendBatchInTx'>,
  accepted: Accepted[],
  at: string,
): Promise<Map<Pending, Written>> {
  const written = await writeBatch(tx, { ...batchWrite(accepted), at });
  const entryOf = (item: Pending) =>
    item.op.type === 'transfer' || item.op.type === 'post' ? written.entries.get(keyOf(item.op)) : undefined;
  const holdOf = (item: Pending) => {
    const key = holdKeyOf(item.op);
    return key === null ? undefined : written.holds.get(key);
  };
  const attached = await writeAttachments(tx, accepted, entryOf, holdOf);
  await audit.appendBatchInTx(
    tx,
    accepted.map(({ item, effect }) => {
      const entry = entryOf(item);
      const holdId = holdOf(item);
      const subject = entry
        ? `ledger_entry:${entry.id}`
        : holdId
          ? `ledger_hold:${holdId}`
          : effect.audit.subject;
      // A transfer that held what it credited names its hold beside the entry.
      const data =
        entry && holdId !== undefined ? { ...(effect.audit.data as object), holdId } : effect.audit.data;
      return { ...effect.audit, subject, data };
    }),
  );
  const results = new Map<Pending, Written>();
  for (const { item } of accepted) {
    const entry = entryOf(item);
    const answer = attached.has(item) ? { attached: attached.get(item) } : {};
    const holdId = holdOf(item);
    if (entry)
      results.set(item, {
        entryId: entry.id,
        createdAt: entry.createdAt,
        replayed: false,
        ...(holdId === undefined ? {} : { holdId }),
        ...answer,
      });
    else if (item.op.type === 'hold')
      results.set(item, { holdId: holdOf(item) ?? 0, replayed: false, ...answer });
    else if (item.op.type === 'void')
      results.set(item, { holdId: item.op.request.holdId, replayed: false, ...answer });
  }
  return results;
}

/** The rows of the one statement that writes a batch: entries, postings, holds, resolutions, net deltas. */
function batchWrite(accepted: Accepted[]) {
  const net = new Map<number, { balance: bigint; held: bigint }>();
  for (const { effect } of accepted) {
    for (const [id, d] of effect.deltas) {
      const n = net.get(id) ?? { balance: 0n, held: 0n };
      n.balance += d.balance;
      n.held += d.held;
      net.set(id, n);
    }
  }
  return {
    entries: accepted.flatMap((a) => (a.effect.entry ? [a.effect.entry] : [])),
    postings: accepted.flatMap((a) =>
      (a.effect.postings ?? []).map((p) => ({ ...p, entryKey: keyOf(a.item.op) })),
    ),
    holds: accepted.flatMap((a) => (a.effect.hold ? [a.effect.hold] : [])),
    resolutions: accepted.flatMap((a) =>
      a.effect.resolution ? [{ ...a.effect.resolution, resolutionKey: keyOf(a.item.op) }] : [],
    ),
    deltas: [...net]
      .filter(([, d]) => d.balance !== 0n || d.held !== 0n)
      .map(([accountId, d]) => ({ accountId, ...d })),
  };
}

/**
 * The attachments of the accepted operations, after their entries and hold changes are written: one
 * writer call per attachment kind, in the batch's transaction, with this batch's rows only; answers
 * what each operation's writer answered. A writer that throws fails the batch, which is then
 * retried operation by operation: only the operation whose writer throws is refused, with nothing
 * of it written.
 */
async function writeAttachments(
  tx: Queryable,
  accepted: Accepted[],
  entryOf: (item: Pending) => { id: number } | undefined,
  holdOf: (item: Pending) => number | undefined,
): Promise<Map<Pending, unknown>> {
  type Staged = { item: Pending; id: number; answer: (answers: ReadonlyMap<number, unknown>) => unknown };
  const byChannel = new Map<AttachmentChannel, { rows: unknown[]; staged: Staged[] }>();
  const stage = (channel: AttachmentChannel, row: unknown, staged: Staged) => {
    let group = byChannel.get(channel);
    if (!group) {
      group = { rows: [], staged: [] };
      byChannel.set(channel, group);
    }
    group.rows.push(row);
    group.staged.push(staged);
  };
  for (const { item } of accepted) {
    const { op } = item;
    if (op.type === 'transfer') {
      const entry = entryOf(item);
      const attach = op.request.attach;
      const holdId = holdOf(item);
      if (entry && attach)
        stage(
          attach.channel,
          attach.row(holdId === undefined ? { entryId: entry.id } : { entryId: entry.id, holdId }),
          {
            item,
            id: entry.id,
            answer: (answers) => attach.result(answers, entry.id),
          },
        );
      continue;
    }
    const attach = op.request.attach;
    if (!attach) continue;
    const target: HoldTarget | null =
      op.type === 'hold'
        ? { holdId: holdOf(item) ?? 0, entryId: null }
        : { holdId: op.request.holdId, entryId: op.type === 'post' ? (entryOf(item)?.id ?? null) : null };
    if (target.holdId > 0)
      stage(attach.channel, attach.row(target), {
        item,
        id: target.holdId,
        answer: (answers) => attach.result(answers, target.holdId),
      });
  }
  const attached = new Map<Pending, unknown>();
  for (const [channel, group] of byChannel) {
    const answers = await channel.write(tx, group.rows);
    for (const staged of group.staged) {
      const answer = staged.answer(answers);
      if (answer !== undefined) attached.set(staged.item, answer);
    }
  }
  return attached;
}
