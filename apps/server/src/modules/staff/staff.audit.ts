import type { AuditChainVerdict, AuditEntry } from '@swx/contract';
import type { AuditService } from '../audit/audit.service.ts';
import { type StaffService, type StaffSession, staffIdOfActor } from './staff.service.ts';

const PAGE = 50;
const DAY_MS = 86_400_000;

export type AuditQuery = {
  actor?: string | undefined;
  action?: string | undefined;
  subject?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  before?: string | undefined;
};

/**
 * The audit log screen of the back office: the hash-chained log read through the audit module's
 * service, newest first with filters and keyset pages, staff actors shown by email, and the chain
 * check on demand. Reading and checking are themselves audited.
 */
export class StaffAuditLog {
  private readonly audit: AuditService;
  private readonly staff: StaffService;

  constructor(deps: { audit: AuditService; staff: StaffService }) {
    this.audit = deps.audit;
    this.staff = deps.staff;
  }

  async search(
    session: StaffSession,
    query: AuditQuery,
  ): Promise<{ rows: AuditEntry[]; next: string | null }> {
    const actor = await this.actorOf(query.actor);
    const rows = await this.audit.search({
      actor: actor ?? undefined,
      actionPrefix: query.action || undefined,
      subject: query.subject || undefined,
      from: query.from ? `${query.from}T00:00:00.000Z` : undefined,
      to: query.to ? new Date(Date.parse(`${query.to}T00:00:00.000Z`) + DAY_MS).toISOString() : undefined,
      beforeSeq: query.before ? Number(query.before) : undefined,
      limit: PAGE + 1,
    });
    // Recorded after the read, so the page never shows its own row first.
    await this.staff.record(session, 'audit.searched', 'audit', { ...query });
    const page = rows.slice(0, PAGE);
    const refs = await this.staff.refsOf(
      page.map((r) => staffIdOfActor(r.actor)).filter((id): id is number => id !== null),
    );
    return {
      rows: page.map((r) => {
        const id = staffIdOfActor(r.actor);
        return {
          seq: r.seq,
          at: r.at,
          actor: r.actor,
          actorStaff: id === null ? null : (refs.get(id) ?? null),
          action: r.action,
          subject: r.subject,
          data: r.data,
        };
      }),
      next: rows.length > PAGE ? String(page.at(-1)?.seq ?? '') : null,
    };
  }

  /** Walks the whole chain; the verdict is audited (after the walk, so it is not part of it). */
  async verify(session: StaffSession): Promise<AuditChainVerdict> {
    const verdict = await this.audit.verify();
    const result: AuditChainVerdict = verdict.ok
      ? { ok: true, rows: verdict.rows, brokenAt: null, reason: null, checkedAt: new Date().toISOString() }
      : {
          ok: false,
          rows: verdict.rows,
          brokenAt: verdict.brokenAt,
          reason: verdict.kind,
          checkedAt: new Date().toISOString(),
        };
    await this.staff.record(session, 'audit.verified', 'audit', {
      ok: result.ok,
      rows: result.rows,
      brokenAt: result.brokenAt,
    });
    return result;
  }

  /** An actor filter: a staff email names its `staff:<id>`; anything else is taken as written. */
  private async actorOf(text: string | undefined): Promise<string | null> {
    const actor = text?.trim();
    if (!actor) return null;
    if (!actor.includes('@')) return actor;
    const found = await this.staff.findIdByEmail(actor.toLowerCase());
    return found === null ? 'staff:0' : `staff:${found}`;
  }
}
