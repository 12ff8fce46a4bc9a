/**
 * One id per commit attempt (an order ticket, a purchase): a retry after a lost answer is
 * recognised by the server and commits once; a new quote is a new attempt.
 */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context randomUUID is missing; 16 random bytes in hex serve the same purpose.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}
