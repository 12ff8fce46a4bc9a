import { dailyKey, type Job, minuteKey } from '../../platform/jobs.ts';
import type { SmartService } from './smart.service.ts';

/* The smart jobs: the live runner, the daily backtests and the daily income. */

/** The live runner, every minute: plans step through the minutes completed since their last run. */
export function smartLiveJob(smart: SmartService): Job {
  return {
    name: 'smart.live',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async () => {
      await smart.runLive();
    },
  };
}

/** Each product's backtest of the day, computed once a day after 00:00 UTC so a product page need not wait for it. */
export function smartBacktestJob(smart: SmartService): Job {
  return {
    name: 'smart.backtests',
    everyMs: 15 * 60_000,
    runKey: dailyKey,
    run: async () => {
      await smart.refreshBacktests();
    },
  };
}

/** The daily income: every 15 minutes, each running plan's complete days not yet recorded (yesterday's after 00:00 UTC). */
export function smartIncomeJob(smart: SmartService): Job {
  return {
    name: 'smart.income',
    everyMs: 15 * 60_000,
    runKey: (now) => `${now.toISOString().slice(0, 13)}:${Math.floor(now.getUTCMinutes() / 15)}`,
    run: async () => {
      await smart.postDailyIncome();
    },
  };
}
