import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Code, formatDisplay, interpolate, LANGUAGE_TAGS, LANGUAGES, type Language } from '@swx/contract';
import { shownEvmAddress } from '@swx/contract/evmAddress';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { localeTexts } from '../../platform/texts.ts';
import { insertNotice, insertNotices, markRead, type NoticeRow, noticesOf } from './notices.repository.ts';

/**
 * Notice texts live beside the module that sends them: the `notices` group of
 * `modules/<module>/locales/<language>.json`, a text per notice kind whose `{{name}}` parameters are
 * filled in when the notice is read. This module's own locales hold `word`: the parameters that are
 * words, not data (stored as a token, e.g. the book `demo`/`live`), in the reader's language.
 * Adding a module's notices edits that module's files only.
 */
type WordTexts = typeof import('./locales/en.json');
const WORDS = localeTexts<WordTexts>(join(import.meta.dirname, 'locales'));
const MODULES_DIR = join(import.meta.dirname, '..');

/** A notice kind: a key of some module's `notices` texts (checked when the texts load). */
export type NoticeKind = string;

/** Every module's notice texts per language, read once; a kind two modules both name is refused. */
const KINDS: Record<Language, Record<string, string>> = (() => {
  const all = Object.fromEntries(LANGUAGES.map((language) => [language, {}])) as Record<
    Language,
    Record<string, string>
  >;
  for (const module of readdirSync(MODULES_DIR).sort()) {
    const folder = join(MODULES_DIR, module, 'locales');
    if (!existsSync(join(folder, 'en.json'))) continue;
    const texts = localeTexts<{ notices?: Record<string, string> }>(folder);
    for (const language of LANGUAGES)
      for (const [kind, text] of Object.entries(texts[language].notices ?? {})) {
        if (Object.hasOwn(all[language], kind))
          throw new Error(`notice kind ${kind} is named twice (${module})`);
        all[language][kind] = text;
      }
  }
  return all;
})();

function isKind(kind: string): kind is NoticeKind {
  return Object.hasOwn(KINDS.en, kind);
}

/** Parameters that are amounts: of the notice's `asset`, or of USDT when it names none (smart, positions). */
const AMOUNTS = new Set([
  'amount',
  'receive',
  'minimum',
  'interest',
  'total',
  'owed',
  'lateCap',
  'profit',
  'result',
  'fee',
  'returned',
]);
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/**
 * `amounts`: amounts of several assets, stored as `<decimal> <ASSET>` items joined by `; `
 * ("3.287670 USDT; 0.00010000 BTC"); read as each amount shown like `amount` with its asset, joined
 * as the reader's language joins a list ("3.28767 USDT and 0.0001 BTC").
 */
const AMOUNT_ITEM = /^(-?\d+(?:\.\d+)?) ([A-Z0-9]+)$/;

function shownAmounts(language: Language, value: string): string | null {
  const items = value.split('; ').map((item) => AMOUNT_ITEM.exec(item));
  if (!items.every((m) => m !== null)) return null;
  const shown = items.map(
    ([, decimal = '', asset = '']) => `${formatDisplay(language, decimal, asset)} ${asset}`,
  );
  return listFormat(language).format(shown);
}

/** A list format per language, made once (making one costs far more than using it). */
const listFormats = new Map<Language, Intl.ListFormat>();

function listFormat(language: Language): Intl.ListFormat {
  let format = listFormats.get(language);
  if (!format) {
    format = new Intl.ListFormat(LANGUAGE_TAGS[language], { type: 'conjunction' });
    listFormats.set(language, format);
  }
  return format;
}

/**
 * A parameter as the reader sees it: an amount as every screen shows it (`formatDisplay`: the
 * asset's digits without trailing zeros, at least two decimals, in the reader's number format), an
 * EVM address in its EIP-55 checksummed form; anything else as stored.
 */
function shownParam(language: Language, key: string, value: string, asset: string): string {
  if (AMOUNTS.has(key) && DECIMAL.test(value)) return formatDisplay(language, value, asset);
  if (key === 'amounts') return shownAmounts(language, value) ?? value;
  if (key === 'address') return shownEvmAddress(value);
  return value;
}

/** A notice's text in one language from its kind and parameters. */
export function renderNotice(kind: NoticeKind, language: Language, params: Record<string, string>): string {
  if (!isKind(kind)) throw new Error(`no module has notice texts for ${kind}`);
  const words: Record<string, Record<string, string> | undefined> = WORDS[language].word;
  const word = (key: string, token: string): string | undefined => {
    const names = Object.hasOwn(words, key) ? words[key] : undefined;
    return names && Object.hasOwn(names, token) ? names[token] : undefined;
  };
  const asset = params.asset ?? 'USDT';
  // A notice stored with one `amount` and `asset` before its text named `amounts` reads as a list of one.
  const given =
    params.amounts === undefined && params.amount !== undefined && params.asset !== undefined
      ? { ...params, amounts: `${params.amount} ${params.asset}` }
      : params;
  const values = Object.fromEntries(
    Object.entries(given).map(([key, value]) => [
      key,
      word(key, value) ?? shownParam(language, key, value, asset),
    ]),
  );
  return interpolate(KINDS[language][kind] ?? kind, values, language);
}

/**
 * What the customer reads: made now in their language; a notice without parameters as it was
 * written. `mustRead` is its kind's weight: it opens the blocking dialog, else it waits in the list.
 */
export type NoticeView = {
  id: number;
  noticeContent: string;
  readState: 0 | 1;
  createdAt: string;
  mustRead: boolean;
};

/**
 * How a notice kind reaches the customer. `mustRead`: the spec's blocking dialog on the next page
 * (a security alert, a refused submission, money taken back, an operator's announcement).
 * `routine`: activity the customer asked for (an income day, a deposit step, a trade closed, a
 * plan ended, a repayment), kept in the notification list without a dialog.
 */
export type NoticeWeight = 'mustRead' | 'routine';

/**
 * Notices to customers (spec §3, §4). Other modules create them here with a kind and parameters;
 * the customer lists them, each rendered in the language of that request (so a language change
 * shows every notice in the new language), and reading one marks it read. The text in the
 * language at creation is stored too, and notices kept from before parameters were stored show
 * it. A notice is only ever the owner's.
 */
export class NoticesService {
  private readonly db: Database;
  /** The weights modules declared (`declareKinds`); a kind none declared must be read. */
  private readonly weights = new Map<NoticeKind, NoticeWeight>();

  /** The service clock: a notice is dated by it (a sandbox's movable clock too), like the product that sends it. */
  private readonly now: () => number;

  constructor(db: Database, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
  }

  /**
   * A module's notice kinds and those of them the customer must read; the others are routine.
   * The product kit declares each product's from its definition (`defineProduct({ notices,
   * mustReadNotices })`), so a product's kind is routine unless it is named must-read. A kind no
   * module declares must be read: the base modules' notices (identity's security alerts and
   * welcome, the KYC decision) keep the spec's dialog.
   */
  declareKinds(kinds: readonly NoticeKind[], mustRead: readonly NoticeKind[] = []): void {
    for (const kind of mustRead)
      if (!kinds.includes(kind)) throw new Error(`must-read notice ${kind} is not among the kinds declared`);
    for (const kind of kinds) {
      const weight: NoticeWeight = mustRead.includes(kind) ? 'mustRead' : 'routine';
      const before = this.weights.get(kind);
      if (before !== undefined && before !== weight)
        throw new Error(`notice kind ${kind} is declared both ${before} and ${weight}`);
      this.weights.set(kind, weight);
    }
  }

  /** The weight of a kind: as its module declared it, else must-read. */
  weightOf(kind: NoticeKind): NoticeWeight {
    return this.weights.get(kind) ?? 'mustRead';
  }

  async notify(
    userId: number,
    language: Language,
    kind: NoticeKind,
    params: Record<string, string>,
  ): Promise<number> {
    return this.notifyInTx(this.db, userId, language, kind, params);
  }

  /** A notice written in the caller's transaction: it exists exactly when the caller's change does. */
  async notifyInTx(
    tx: Queryable,
    userId: number,
    language: Language,
    kind: NoticeKind,
    params: Record<string, string>,
  ): Promise<number> {
    const content = renderNotice(kind, language, params);
    return insertNotice(tx, { userId, kind, params, content, at: new Date(this.now()).toISOString() });
  }

  /** Many notices written in the caller's transaction, in one statement (each as `notifyInTx` writes it). */
  async notifyManyInTx(
    tx: Queryable,
    notices: readonly {
      userId: number;
      language: Language;
      kind: NoticeKind;
      params: Record<string, string>;
    }[],
  ): Promise<void> {
    await insertNotices(
      tx,
      notices.map((n) => ({
        userId: n.userId,
        kind: n.kind,
        params: n.params,
        content: renderNotice(n.kind, n.language, n.params),
      })),
      new Date(this.now()).toISOString(),
    );
  }

  async list(userId: number, language: Language, readState?: 0 | 1): Promise<NoticeView[]> {
    const rows = await noticesOf(
      this.db,
      userId,
      readState === undefined ? { limit: 100 } : { readState, limit: 100 },
    );
    return rows.map((row) => ({
      id: row.id,
      noticeContent: viewText(row, language),
      readState: row.readState,
      createdAt: row.createdAt,
      mustRead: this.weightOf(row.kind) === 'mustRead',
    }));
  }

  async read(userId: number, noticeId: number): Promise<void> {
    if (!(await markRead(this.db, userId, noticeId))) throw new ApiError(Code.NOT_FOUND);
  }
}

function viewText(row: NoticeRow, language: Language): string {
  return row.params !== null && isKind(row.kind)
    ? renderNotice(row.kind, language, row.params)
    : row.noticeContent;
}
