/** An id from a route parameter (a product, loan or plan): decimal digits only, else null. */
export function idOf(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,9}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}
