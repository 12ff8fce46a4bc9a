import {
  EMPTY_OPERATOR_SETTINGS,
  type OperatorInfo,
  type OperatorSettings,
  type OperatorSettingsRecord,
  operatorSettings,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { type AuditService, canonicalJson } from '../audit/audit.service.ts';
import type { StaffSession } from '../staff/staff.service.ts';
import { findOperatorSettings, lockOperatorSettings, saveOperatorSettings } from './operator.repository.ts';

const parsed = (value: unknown): OperatorSettings => {
  const document = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  const result = operatorSettings.safeParse(document);
  // A row that no longer passes the contract (edited by hand) shows nothing rather than half of it.
  return result.success ? result.data : EMPTY_OPERATOR_SETTINGS;
};

/** Fields whose value differs between two settings documents, for the audit row. */
function changedFields(before: OperatorSettings, after: OperatorSettings): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter(
      (key) =>
        // Canonical (sorted keys): jsonb does not keep the order the keys were written in.
        canonicalJson(before[key as keyof OperatorSettings] ?? null) !==
        canonicalJson(after[key as keyof OperatorSettings] ?? null),
    )
    .sort();
}

/**
 * The operator's identity (DESIGN §2 rule 9): read by every customer page, set by admins in the
 * back office. Nothing set is the sandbox: no company, no regulator, no people, no figures.
 */
export class OperatorService {
  private readonly db: Database;
  private readonly audit: AuditService;
  private readonly production: boolean;

  /** production: a real-money run (config.production), which is never called a sandbox. */
  constructor(deps: { db: Database; audit: AuditService; production: boolean }) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.production = deps.production;
  }

  async record(): Promise<OperatorSettingsRecord> {
    const row = await findOperatorSettings(this.db);
    if (!row) return { settings: EMPTY_OPERATOR_SETTINGS, updatedAt: null, updatedBy: null };
    return {
      settings: parsed(row.settings),
      updatedAt: new Date(row.updated_at).toISOString(),
      updatedBy: row.updated_by_email,
    };
  }

  /**
   * What customers read: the settings, and the sandbox flag: no company named on a run that is not
   * production. A production run without an identity shows none, and never claims to be a sandbox.
   */
  async info(): Promise<OperatorInfo> {
    const { settings, updatedAt } = await this.record();
    return { ...settings, sandbox: settings.companyName === undefined && !this.production, updatedAt };
  }

  /** Replaces the settings (already validated by the contract) and audits the change, in one transaction. */
  async set(staff: StaffSession, next: OperatorSettings): Promise<OperatorSettingsRecord> {
    const settings = operatorSettings.parse(next);
    await this.db.transaction(async (tx) => {
      const previous = await lockOperatorSettings(tx);
      const before = previous === null ? EMPTY_OPERATOR_SETTINGS : parsed(previous);
      await saveOperatorSettings(tx, settings, staff.staffId);
      await this.audit.appendInTx(tx, [
        {
          actor: `staff:${staff.staffId}`,
          action: 'operator.settings.updated',
          subject: 'operator_settings',
          data: { changed: changedFields(before, settings), settings },
        },
      ]);
    });
    return this.record();
  }
}
