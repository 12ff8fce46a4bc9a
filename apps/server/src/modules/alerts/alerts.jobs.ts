import { type Job, type JobRunner, minuteKey } from '../../platform/jobs.ts';
import type { AlertsService } from './alerts.service.ts';

/**
 * Once a minute across the nodes: a staff alert for each job whose run stalled (still running
 * after its lease ran out: its node died or hangs), then the mail of every alert not mailed yet to
 * the roles that act on it.
 */
export function staffAlertsJob(alerts: AlertsService, jobs: Pick<JobRunner, 'stalled'>): Job {
  return {
    name: 'staff-alerts',
    everyMs: 20_000,
    runKey: minuteKey,
    async run({ logger }) {
      for (const run of await jobs.stalled()) await alerts.jobStalled(run);
      const mailed = await alerts.mailPending();
      if (mailed > 0) logger.info({ mailed }, 'staff alerts mailed');
    },
  };
}
