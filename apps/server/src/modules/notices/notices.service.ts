import { Code, type Language } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { insertNotice, markRead, type NoticeRow, noticesOf } from './notices.repository.ts';

/** Notice texts per language; `{name}`-style parameters are filled in at creation. */
const TEMPLATES = {
  welcome: {
    en: 'Welcome to SWX, {name}. Your demo account holds 100,000 virtual USDT to practise with; it never touches real money. Switch to your live account from My account whenever you are ready.',
    ja: 'SWXへようこそ、{name}さん。デモ口座には練習用の仮想USDTが100,000あり、実際のお金には一切影響しません。準備ができたら「マイアカウント」からリアル口座に切り替えられます。',
    ko: '{name}님, SWX에 오신 것을 환영합니다. 모의투자 계좌에는 연습용 가상 USDT 100,000이 있으며 실제 자금과는 전혀 관계가 없습니다. 준비가 되면 내 계정에서 실전투자 계좌로 전환하세요.',
    de: 'Willkommen bei SWX, {name}. Ihr Demokonto enthält 100.000 virtuelle USDT zum Üben; echtes Geld ist davon nie betroffen. Wechseln Sie unter „Mein Konto“ zum Live-Konto, wann immer Sie bereit sind.',
    fr: 'Bienvenue sur SWX, {name}. Votre compte démo contient 100 000 USDT virtuels pour vous entraîner ; il ne touche jamais à l’argent réel. Passez à votre compte réel depuis Mon compte quand vous le souhaitez.',
    it: 'Benvenuto su SWX, {name}. Il tuo conto demo contiene 100.000 USDT virtuali per fare pratica e non tocca mai denaro reale. Passa al conto reale da Il mio account quando sei pronto.',
    es: 'Bienvenido a SWX, {name}. Su cuenta demo tiene 100.000 USDT virtuales para practicar y nunca toca dinero real. Cambie a su cuenta real desde Mi cuenta cuando esté listo.',
    ar: 'مرحبًا بك في SWX يا {name}. يحتوي حسابك التجريبي على 100,000 USDT افتراضية للتدرّب، ولا يمسّ أموالًا حقيقية أبدًا. انتقل إلى حسابك الحقيقي من صفحة حسابي متى كنت مستعدًا.',
    hk: '{name}，歡迎加入 SWX。您的模擬帳戶備有 100,000 虛擬 USDT 供練習之用，絕不涉及真實資金。準備就緒後，可隨時在「我的帳戶」切換至真實帳戶。',
    zh: '{name}，欢迎加入 SWX。您的模拟账户有 100,000 虚拟 USDT 供练习使用，绝不涉及真实资金。准备好后，可随时在“我的账户”切换到实盘账户。',
  },
} satisfies Record<string, Record<Language, string>>;

export type NoticeKind = keyof typeof TEMPLATES;

/**
 * Notices to customers (spec §3, §4). Other modules create them here, in the customer's language;
 * the customer lists them, and reading one marks it read. A notice is only ever the owner's.
 */
export class NoticesService {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async notify(
    userId: number,
    language: Language,
    kind: NoticeKind,
    params: Record<string, string>,
  ): Promise<number> {
    let content: string = TEMPLATES[kind][language];
    for (const [key, value] of Object.entries(params)) content = content.replaceAll(`{${key}}`, value);
    return insertNotice(this.db, { userId, kind, content });
  }

  list(userId: number, readState?: 0 | 1): Promise<NoticeRow[]> {
    return noticesOf(this.db, userId, readState === undefined ? { limit: 100 } : { readState, limit: 100 });
  }

  async read(userId: number, noticeId: number): Promise<void> {
    if (!(await markRead(this.db, userId, noticeId))) throw new ApiError(Code.NOT_FOUND);
  }
}
