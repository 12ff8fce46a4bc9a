import { buildApps } from './lib.mjs';

buildApps();
console.log('built apps/web/dist and apps/admin/dist');
