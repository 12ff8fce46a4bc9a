import { defineModule } from '../../platform/module.ts';
import { quoteClaimsJob } from './quotes.ts';

/** The product kit's own work: a quote commits once, its claim kept until long after it expired. */
export const productsModule = defineModule({
  name: 'products',
  jobs: ({ clock }, platform) => [quoteClaimsJob(platform.db, clock.now)],
});
