/**
 * The earn screens, one chunk: the routes load it through one import (routes.ts `earn`), so the
 * entry chunk carries one preload list for the five routes rather than five.
 */
export { default as FundDetail } from './FundDetail.tsx';
export { default as FundList } from './FundList.tsx';
export { default as MyInvest } from './MyInvest.tsx';
export { default as VipDetail } from './VipDetail.tsx';
export { default as VipList } from './VipList.tsx';
