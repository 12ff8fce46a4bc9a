import { daysOf } from '../KitFields.tsx';

/**
 * The terms of a loan product as staff type them: whole days separated by commas or spaces
 * (Arabic and CJK commas too), each once, in order. "30, 7 14" → [7, 14, 30]; null when a part
 * is not a number of days (the contract's schema then checks 1 to 365 and at most 12). The form
 * reads them so (a `days` list of 3 digits).
 */
export const termsOf = (typed: string): number[] | null => daysOf(typed, 3);
