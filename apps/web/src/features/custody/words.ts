import { entropyToMnemonic, generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/**
 * The self-custody wallet's words (BIP-39, English list): making, checking and re-asking them. No
 * key is derived here: keys.ts (the elliptic curve and BIP-32 code) is loaded only when a screen
 * derives or signs, so the restore, create and verify screens start without it.
 */

/** The lengths a phrase may have when restored; a new one has 12 words (spec §5). */
export const WORD_COUNTS = [12, 24] as const;

/** 12 new words from 128 bits of the browser's cryptographic randomness (English list). */
export function newMnemonic(): string {
  return generateMnemonic(wordlist, 128);
}

/** The phrase of some entropy (the BIP-39 test vectors). */
export function mnemonicOf(entropy: Uint8Array): string {
  return entropyToMnemonic(entropy, wordlist);
}

/** Words as typed: lowercase, single spaces, no surrounding blanks. */
export function normalizeMnemonic(text: string): string {
  return text.normalize('NFKD').trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');
}

export type MnemonicProblem = 'count' | 'unknown_word' | 'checksum';

/** Why typed words are not a phrase this wallet restores (12 or 24 English words, checksum), or null. */
export function mnemonicProblem(text: string): MnemonicProblem | null {
  const words = normalizeMnemonic(text).split(' ').filter(Boolean);
  if (!(WORD_COUNTS as readonly number[]).includes(words.length)) return 'count';
  if (words.some((w) => !wordlist.includes(w))) return 'unknown_word';
  return validateMnemonic(words.join(' '), wordlist) ? null : 'checksum';
}

/** Is this word on the English list (to help the customer while typing)? */
export function isListWord(word: string): boolean {
  return wordlist.includes(word.trim().toLowerCase());
}

/** `count` different positions (0-based, ascending) among `of` words, from cryptographic randomness. */
export function challengePositions(of: number, count = 3): number[] {
  const picked = new Set<number>();
  const random = new Uint32Array(1);
  while (picked.size < Math.min(count, of)) {
    crypto.getRandomValues(random);
    // Rejection sampling: no position is likelier than another.
    const limit = 2 ** 32 - (2 ** 32 % of);
    if ((random[0] as number) < limit) picked.add((random[0] as number) % of);
  }
  return [...picked].sort((a, b) => a - b);
}

/** Which of the words typed at these positions are not the phrase's: their indexes in `positions`. */
export function challengeMismatches(
  mnemonic: string,
  positions: readonly number[],
  typed: readonly string[],
): number[] {
  const words = normalizeMnemonic(mnemonic).split(' ');
  return positions.flatMap((p, i) => (normalizeMnemonic(typed[i] ?? '') === words[p] ? [] : [i]));
}

/** Are the words typed at these positions those of the phrase? */
export function challengePassed(
  mnemonic: string,
  positions: readonly number[],
  typed: readonly string[],
): boolean {
  return challengeMismatches(mnemonic, positions, typed).length === 0;
}
