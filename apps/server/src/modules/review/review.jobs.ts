import { type Job, minuteKey } from '../../platform/jobs.ts';
import type { ReviewService } from './review.service.ts';

/** Every minute: finish the review decisions a stopped node left between the ledger and the record. */
export function reviewResumeJob(reviews: ReviewService): Job {
  return {
    name: 'review.resume',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async ({ logger }) => {
      const finished = await reviews.resumeStale();
      if (finished > 0) logger.warn({ finished }, 'review decisions finished after a stop');
    },
  };
}
