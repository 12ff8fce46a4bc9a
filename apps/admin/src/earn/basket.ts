/** Instrument codes typed with commas, spaces or new lines between them, upper-cased, each once. */
export function basketCodes(typed: string): string[] {
  return [
    ...new Set(
      typed
        .split(/[\s,،、，;]+/)
        .filter(Boolean)
        .map((code) => code.toUpperCase()),
    ),
  ];
}
