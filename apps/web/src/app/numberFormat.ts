/**
 * One Intl.NumberFormat per locale and options, made once: making one costs far more than using
 * it, and a market list formats every price and change of every row on each quote.
 */
const formats = new Map<string, Intl.NumberFormat>();

export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = options ? `${locale} ${JSON.stringify(options)}` : locale;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}
