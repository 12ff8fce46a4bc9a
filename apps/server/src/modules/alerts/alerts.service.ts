import { join } from 'node:path';
import { Code, interpolate, type StaffAlert, type StaffAlertState, type StaffRole } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { JobFailure } from '../../platform/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import { localeTexts } from '../../platform/texts.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffService, StaffSession } from '../staff/staff.service.ts';
import {
  type AlertRow,
  acknowledgeAlert,
  alertById,
  alertsIn,
  markMailed,
  resolveAlert,
  setAlertKey,
  unmailedAlerts,
  unmarkMailed,
  unresolvedByKey,
} from './alerts.repository.ts';

/** The staff alert mail's texts (locales/<language>.json): a title per kind, the mail around it. */
type AlertTexts = typeof import('./locales/en.json');
const TEXT = localeTexts<AlertTexts>(join(import.meta.dirname, 'locales'));

/**
 * Who acts on an alert of a kind, and so gets its mail: finance for money that does not add up
 * (a settlement or reserve that cannot pay, a reconciliation difference, a deposit reversal that
 * failed), admin for the platform (a failed job) and anything else. When nobody active holds the
 * role, the admins get it: an alert always reaches someone.
 */
const ROLES_OF: Readonly<Record<string, readonly StaffRole[]>> = {
  settlement: ['finance'],
  'earn.reserve': ['finance'],
  reconciliation: ['finance'],
  'wallet.deposit.reversal_failed': ['finance'],
  'job.failed': ['admin'],
  'job.stalled': ['admin'],
};
export const rolesOfAlert = (kind: string): readonly StaffRole[] => ROLES_OF[kind] ?? ['admin'];

const PAGE = 50;

/**
 * Staff alerts (the `staff_alerts` the system raises through the audit service): listed by state
 * for the back office, acknowledged and resolved by staff (audited, in the same transaction), and
 * mailed to the roles that act on them — every alert not mailed yet, by `mailPending` (the alerts
 * job, and at once after a failed job's alert). A failed job raises one alert per job while it is
 * unresolved, however often it fails again.
 */
export class AlertsService {
  private readonly deps: {
    db: Database;
    audit: Pick<AuditService, 'alertStaffInTx'>;
    staff: Pick<StaffService, 'activeOfRoles' | 'refsOf' | 'record'>;
    mailer: Mailer;
    /** The back office's address (PUBLIC_URL/admin), for the link in the mail; none without PUBLIC_URL. */
    adminUrl?: string | undefined;
    logger?: Logger | undefined;
  };

  constructor(deps: AlertsService['deps']) {
    this.deps = deps;
  }

  async list(state: StaffAlertState, beforeId: number | null): Promise<StaffAlert[]> {
    return this.wire(await alertsIn(this.deps.db, state, PAGE, beforeId));
  }

  /** Someone is on it: open → acknowledged (else 10008), audited with the staff member. */
  async acknowledge(session: StaffSession, id: number): Promise<StaffAlert> {
    return this.decide(session, id, 'staff_alert.acknowledged', {}, (tx, actor) =>
      acknowledgeAlert(tx, id, actor),
    );
  }

  /** Done: open or acknowledged → resolved (else 10008), with a note, audited. */
  async resolve(session: StaffSession, id: number, note: string): Promise<StaffAlert> {
    return this.decide(session, id, 'staff_alert.resolved', { note }, (tx, actor) =>
      resolveAlert(tx, id, actor),
    );
  }

  private async decide(
    session: StaffSession,
    id: number,
    action: string,
    data: Record<string, string>,
    change: (tx: Parameters<Parameters<Database['transaction']>[0]>[0], actor: string) => Promise<boolean>,
  ): Promise<StaffAlert> {
    const actor = `staff:${session.staffId}`;
    const outcome = await this.deps.db.transaction(async (tx) => {
      const alert = await alertById(tx, id, true);
      if (!alert) return 'missing' as const;
      if (!(await change(tx, actor))) return 'state' as const;
      await this.deps.staff.record(session, action, `staff_alert:${id}`, { kind: alert.kind, ...data }, tx);
      return 'done' as const;
    });
    if (outcome === 'missing') throw new ApiError(Code.NOT_FOUND);
    if (outcome === 'state') throw new ApiError(Code.WRONG_USER_STATUS);
    const [alert] = await this.wire([(await alertById(this.deps.db, id)) as AlertRow]);
    return alert as StaffAlert;
  }

  /**
   * A job run failed: one alert for the job while it is unresolved (a job failing every minute is
   * one alert, not one a minute), mailed to the admins at once.
   */
  async jobFailed(failure: JobFailure): Promise<number | null> {
    const error = failure.error instanceof Error ? failure.error.message : String(failure.error);
    const raised = await this.raiseOnce(
      'job.failed',
      failure.job,
      `job ${failure.job} failed (run ${failure.runKey}, attempt ${failure.attempt}): ${error.slice(0, 500)}`,
      { job: failure.job, runKey: failure.runKey, attempt: failure.attempt, error: error.slice(0, 2000) },
    );
    if (raised !== null) await this.mailPending();
    return raised;
  }

  /** A run stalled (its lease ran out while still running): one alert per job while unresolved. */
  async jobStalled(run: {
    job: string;
    runKey: string;
    node: string;
    leaseUntil: string;
  }): Promise<number | null> {
    return this.raiseOnce(
      'job.stalled',
      run.job,
      `job ${run.job} stalled: run ${run.runKey} on node ${run.node} is still marked running, its lease ran out at ${run.leaseUntil}`,
      run,
    );
  }

  /** An alert of a recurring cause (kind and key): raised unless one is unresolved. */
  private async raiseOnce(kind: string, key: string, message: string, data: unknown): Promise<number | null> {
    return this.deps.db
      .transaction(async (tx) => {
        if ((await unresolvedByKey(tx, kind, key)) !== null) return null;
        const id = await this.deps.audit.alertStaffInTx(tx, kind, message, data);
        await setAlertKey(tx, id, key);
        return id;
      })
      .catch((e: unknown) => {
        // Another node raised it at the same moment (the unresolved key is unique): that one stands.
        this.deps.logger?.warn({ err: e, kind, key }, 'staff alert not raised');
        return null;
      });
  }

  /**
   * Mails every alert not mailed yet to the active staff of the roles that act on it. An alert is
   * claimed before its mail goes (so two nodes do not both send it) and released when the mail
   * fails, for the next run. Returns how many alerts were mailed.
   */
  async mailPending(): Promise<number> {
    let mailed = 0;
    for (const alert of await unmailedAlerts(this.deps.db, 50)) {
      if (!(await markMailed(this.deps.db, alert.id))) continue;
      try {
        const recipients = await this.recipientsOf(alert.kind);
        const message = this.mailOf(alert);
        for (const staff of recipients) await this.deps.mailer.send({ to: staff.email, ...message });
        mailed += 1;
      } catch (error) {
        await unmarkMailed(this.deps.db, alert.id);
        this.deps.logger?.error({ err: error, alertId: alert.id }, 'staff alert mail failed');
      }
    }
    return mailed;
  }

  private async recipientsOf(kind: string): Promise<{ email: string }[]> {
    const acting = await this.deps.staff.activeOfRoles(rolesOfAlert(kind));
    return acting.length > 0 ? acting : this.deps.staff.activeOfRoles(['admin']);
  }

  /** The mail of an alert (in English: staff accounts carry no language). */
  private mailOf(alert: AlertRow): { subject: string; text: string } {
    const t = TEXT.en;
    const titles: Record<string, string> = t.kind;
    const title = Object.hasOwn(titles, alert.kind) ? (titles[alert.kind] as string) : t.kind.other;
    const values = {
      title,
      kind: alert.kind,
      id: String(alert.id),
      time: alert.createdAt.slice(0, 16).replace('T', ' '),
      roles: rolesOfAlert(alert.kind).join(', '),
      message: alert.message,
    };
    const link = this.deps.adminUrl
      ? `\n\n${interpolate(t.link, { link: `${this.deps.adminUrl.replace(/\/+$/, '')}/alerts` })}`
      : '';
    return { subject: interpolate(t.subject, values), text: `${interpolate(t.body, values)}${link}` };
  }

  private async wire(rows: AlertRow[]): Promise<StaffAlert[]> {
    const ids = rows
      .flatMap((r) => [r.acknowledgedBy, r.resolvedBy])
      .map((actor) => (actor ? /^staff:(\d{1,15})$/.exec(actor)?.[1] : undefined))
      .filter((id): id is string => id !== undefined)
      .map(Number);
    const refs = ids.length > 0 ? await this.deps.staff.refsOf([...new Set(ids)]) : new Map();
    const refOf = (actor: string | null) => {
      const id = actor ? /^staff:(\d{1,15})$/.exec(actor)?.[1] : undefined;
      return id === undefined ? null : (refs.get(Number(id)) ?? null);
    };
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      message: r.message,
      data: r.data,
      state: r.resolvedAt ? 'resolved' : r.acknowledgedAt ? 'acknowledged' : 'open',
      createdAt: r.createdAt,
      mailedTo: r.mailedAt ? [...rolesOfAlert(r.kind)] : [],
      mailedAt: r.mailedAt,
      acknowledgedAt: r.acknowledgedAt,
      acknowledgedBy: refOf(r.acknowledgedBy),
      resolvedAt: r.resolvedAt,
      resolvedBy: refOf(r.resolvedBy),
    }));
  }
}
