import { ASSET_SCALES } from './money.ts';

/**
 * The earn products' plain facts, no schema (earn.ts builds its schemas from them): a module of its
 * own so that an earn screen reads them without building every earn schema when it loads (the
 * customer app puts it in a chunk of its own, vite.config.ts).
 */
export const EARN_ASSETS = Object.keys(ASSET_SCALES) as (keyof typeof ASSET_SCALES)[];

/**
 * Why a product cannot be bought now; reserve_short: its reserve could not pay a day's interest to
 * current investors, and it is off sale until staff fund it.
 */
export const SOLD_OUT_REASONS = ['capacity', 'reserve', 'disabled', 'reserve_short'] as const;
