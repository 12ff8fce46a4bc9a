/**
 * The terms of a loan product as staff type them: whole days separated by commas or spaces
 * (Arabic and CJK commas too), each once, in order. "30, 7 14" → [7, 14, 30]; null when a part
 * is not a number of days (the contract's schema then checks 1 to 365 and at most 12).
 */
export function termsOf(typed: string): number[] | null {
  const parts = typed.split(/[\s,،、，;]+/).filter(Boolean);
  if (parts.length === 0 || parts.some((p) => !/^\d{1,3}$/.test(p))) return null;
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}
