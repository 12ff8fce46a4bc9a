/* Types of the two font packages that ship none (the calls this folder makes). */

declare module 'subset-font' {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: 'sfnt' | 'woff' | 'woff2'; noLayoutClosure?: boolean },
  ): Promise<Buffer>;
}

declare module 'fontverter' {
  const fontverter: { convert(font: Buffer, to: 'sfnt' | 'woff' | 'woff2'): Promise<Buffer> };
  export default fontverter;
}
