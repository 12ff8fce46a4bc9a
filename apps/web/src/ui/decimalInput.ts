/** Arabic-Indic and Persian digits and the Arabic decimal separator, as a reader may type them. */
const LOCAL_DIGITS = /[\u0660-\u0669\u06f0-\u06f9\u066b]/g;

/**
 * Normalizes typed decimal text: local digits to ASCII, spaces dropped, and one comma accepted as
 * the decimal point (many of our readers write 1,5). Group separators are not accepted: "65,000"
 * becomes 65.000, which is why the confirm step repeats every figure before anything opens.
 */
export function normalizeDecimal(text: string): string {
  const ascii = text.replace(LOCAL_DIGITS, (c) => {
    if (c === '\u066b') return '.';
    const code = c.charCodeAt(0);
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
  const compact = ascii.replace(/[\s\u00a0\u202f]/g, '');
  return compact.includes('.') ? compact : compact.replace(',', '.');
}
