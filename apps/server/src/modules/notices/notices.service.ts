import { Code, type Language } from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { insertNotice, markRead, type NoticeRow, noticesOf } from './notices.repository.ts';

/** Notice texts per language; `{name}`-style parameters are filled in when the notice is read. */
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
  position_take_profit: {
    en: 'Position {order} ({code}) reached its take profit and closed at {price}. Profit: {profit} USDT ({book} account).',
    ja: 'ポジション {order}（{code}）が利益確定価格に達し、{price} で決済されました。損益：{profit} USDT（{book} 口座）。',
    ko: '포지션 {order}({code})이(가) 이익 실현가에 도달하여 {price}에 청산되었습니다. 손익: {profit} USDT ({book} 계좌).',
    de: 'Position {order} ({code}) hat ihr Take-Profit erreicht und wurde zu {price} geschlossen. Ergebnis: {profit} USDT ({book}-Konto).',
    fr: 'La position {order} ({code}) a atteint sa prise de bénéfice et a été clôturée à {price}. Résultat : {profit} USDT (compte {book}).',
    it: 'La posizione {order} ({code}) ha raggiunto il take profit ed è stata chiusa a {price}. Risultato: {profit} USDT (conto {book}).',
    es: 'La posición {order} ({code}) alcanzó su toma de ganancias y se cerró a {price}. Resultado: {profit} USDT (cuenta {book}).',
    ar: 'بلغ المركز {order} ({code}) سعر جني الأرباح وأُغلق عند {price}. النتيجة: {profit} USDT (حساب {book}).',
    hk: '倉位 {order}（{code}）已觸及止盈價，並以 {price} 平倉。盈虧：{profit} USDT（{book} 帳戶）。',
    zh: '仓位 {order}（{code}）已触及止盈价，并以 {price} 平仓。盈亏：{profit} USDT（{book} 账户）。',
  },
  position_stop_loss: {
    en: 'Position {order} ({code}) reached its stop loss and closed at {price}. Result: {profit} USDT ({book} account).',
    ja: 'ポジション {order}（{code}）が損切り価格に達し、{price} で決済されました。損益：{profit} USDT（{book} 口座）。',
    ko: '포지션 {order}({code})이(가) 손절가에 도달하여 {price}에 청산되었습니다. 손익: {profit} USDT ({book} 계좌).',
    de: 'Position {order} ({code}) hat ihren Stop-Loss erreicht und wurde zu {price} geschlossen. Ergebnis: {profit} USDT ({book}-Konto).',
    fr: 'La position {order} ({code}) a atteint son stop loss et a été clôturée à {price}. Résultat : {profit} USDT (compte {book}).',
    it: 'La posizione {order} ({code}) ha raggiunto lo stop loss ed è stata chiusa a {price}. Risultato: {profit} USDT (conto {book}).',
    es: 'La posición {order} ({code}) alcanzó su stop loss y se cerró a {price}. Resultado: {profit} USDT (cuenta {book}).',
    ar: 'بلغ المركز {order} ({code}) سعر وقف الخسارة وأُغلق عند {price}. النتيجة: {profit} USDT (حساب {book}).',
    hk: '倉位 {order}（{code}）已觸及止損價，並以 {price} 平倉。盈虧：{profit} USDT（{book} 帳戶）。',
    zh: '仓位 {order}（{code}）已触及止损价，并以 {price} 平仓。盈亏：{profit} USDT（{book} 账户）。',
  },
  position_stop_out: {
    en: 'Position {order} ({code}) was closed at {price} because its margin level fell to 50% or below (stop-out). Result: {profit} USDT ({book} account). Any loss beyond the margin was absorbed by us.',
    ja: 'ポジション {order}（{code}）は証拠金維持率が50%以下になったため、{price} で強制決済されました。損益：{profit} USDT（{book} 口座）。証拠金を超える損失は当社が負担しました。',
    ko: '포지션 {order}({code})은(는) 증거금 유지율이 50% 이하로 떨어져 {price}에 강제 청산되었습니다. 손익: {profit} USDT ({book} 계좌). 증거금을 초과하는 손실은 당사가 부담했습니다.',
    de: 'Position {order} ({code}) wurde zu {price} geschlossen, weil ihr Margin-Level auf 50 % oder darunter fiel (Stop-out). Ergebnis: {profit} USDT ({book}-Konto). Verluste über die Margin hinaus haben wir übernommen.',
    fr: 'La position {order} ({code}) a été clôturée à {price} car son niveau de marge est tombé à 50 % ou moins (stop-out). Résultat : {profit} USDT (compte {book}). Toute perte au-delà de la marge a été prise en charge par nous.',
    it: 'La posizione {order} ({code}) è stata chiusa a {price} perché il livello di margine è sceso al 50% o meno (stop-out). Risultato: {profit} USDT (conto {book}). Le perdite oltre il margine sono state assorbite da noi.',
    es: 'La posición {order} ({code}) se cerró a {price} porque su nivel de margen cayó al 50 % o menos (stop-out). Resultado: {profit} USDT (cuenta {book}). Cualquier pérdida superior al margen la hemos asumido nosotros.',
    ar: 'أُغلق المركز {order} ({code}) عند {price} لأن مستوى الهامش انخفض إلى 50% أو أقل (إيقاف الخسارة الإجباري). النتيجة: {profit} USDT (حساب {book}). تحمّلنا أي خسارة تتجاوز الهامش.',
    hk: '倉位 {order}（{code}）因保證金水平跌至 50% 或以下而以 {price} 強制平倉。盈虧：{profit} USDT（{book} 帳戶）。超出保證金的虧損由我們承擔。',
    zh: '仓位 {order}（{code}）因保证金水平跌至 50% 或以下而以 {price} 强制平仓。盈亏：{profit} USDT（{book} 账户）。超出保证金的亏损由我们承担。',
  },
  position_expiry: {
    en: 'Position {order} ({code}) reached the auto-close time you chose and closed at {price}. Result: {profit} USDT ({book} account).',
    ja: 'ポジション {order}（{code}）は指定した自動決済時刻に達し、{price} で決済されました。損益：{profit} USDT（{book} 口座）。',
    ko: '포지션 {order}({code})이(가) 설정한 자동 청산 시간에 도달하여 {price}에 청산되었습니다. 손익: {profit} USDT ({book} 계좌).',
    de: 'Position {order} ({code}) hat die von Ihnen gewählte automatische Schließzeit erreicht und wurde zu {price} geschlossen. Ergebnis: {profit} USDT ({book}-Konto).',
    fr: 'La position {order} ({code}) a atteint l’heure de clôture automatique choisie et a été clôturée à {price}. Résultat : {profit} USDT (compte {book}).',
    it: 'La posizione {order} ({code}) ha raggiunto l’orario di chiusura automatica scelto ed è stata chiusa a {price}. Risultato: {profit} USDT (conto {book}).',
    es: 'La posición {order} ({code}) llegó a la hora de cierre automático elegida y se cerró a {price}. Resultado: {profit} USDT (cuenta {book}).',
    ar: 'بلغ المركز {order} ({code}) وقت الإغلاق التلقائي الذي اخترته وأُغلق عند {price}. النتيجة: {profit} USDT (حساب {book}).',
    hk: '倉位 {order}（{code}）已到達您設定的自動平倉時間，並以 {price} 平倉。盈虧：{profit} USDT（{book} 帳戶）。',
    zh: '仓位 {order}（{code}）已到达您设定的自动平仓时间，并以 {price} 平仓。盈亏：{profit} USDT（{book} 账户）。',
  },
  kyc_verified: {
    en: 'Your identity is verified. Your credit score now includes the +20 points for verified identity, and services that need verification are open to you.',
    ja: '本人確認が完了しました。信用スコアに本人確認済みの +20 ポイントが加算され、本人確認が必要なサービスをご利用いただけます。',
    ko: '본인 인증이 완료되었습니다. 신용 점수에 본인 인증 +20점이 반영되었으며, 인증이 필요한 서비스를 이용하실 수 있습니다.',
    de: 'Ihre Identität ist bestätigt. Ihr Kreditscore enthält jetzt die +20 Punkte für eine bestätigte Identität, und Dienste, die eine Verifizierung erfordern, stehen Ihnen offen.',
    fr: 'Votre identité est vérifiée. Votre score de crédit inclut désormais les +20 points d’identité vérifiée, et les services qui exigent une vérification vous sont ouverts.',
    it: 'La tua identità è verificata. Il tuo punteggio di credito include ora i +20 punti per l’identità verificata e i servizi che richiedono la verifica sono disponibili.',
    es: 'Su identidad está verificada. Su puntuación de crédito incluye ahora los +20 puntos por identidad verificada y los servicios que requieren verificación ya están disponibles.',
    ar: 'تم التحقق من هويتك. تتضمن درجتك الائتمانية الآن +20 نقطة للهوية الموثّقة، وأصبحت الخدمات التي تتطلب التحقق متاحة لك.',
    hk: '您的身份已通過驗證。信用分數已計入身份驗證的 +20 分，需要驗證的服務現已開放給您。',
    zh: '您的身份已通过验证。信用分数已计入身份验证的 +20 分，需要验证的服务现已向您开放。',
  },
  kyc_failed: {
    en: 'Your identity verification was not successful. Reason: {reason}. You can correct the details or photos and submit again under My account → Settings → Account verification.',
    ja: '本人確認は承認されませんでした。理由：{reason}。「マイアカウント → 設定 → 本人確認」から内容や写真を修正して再提出できます。',
    ko: '본인 인증이 승인되지 않았습니다. 사유: {reason}. 내 계정 → 설정 → 계정 인증에서 정보나 사진을 수정하여 다시 제출할 수 있습니다.',
    de: 'Ihre Identitätsprüfung war nicht erfolgreich. Grund: {reason}. Sie können Angaben oder Fotos unter Mein Konto → Einstellungen → Kontoverifizierung korrigieren und erneut einreichen.',
    fr: 'La vérification de votre identité n’a pas abouti. Motif : {reason}. Vous pouvez corriger les informations ou les photos et les soumettre à nouveau dans Mon compte → Paramètres → Vérification du compte.',
    it: 'La verifica della tua identità non è andata a buon fine. Motivo: {reason}. Puoi correggere i dati o le foto e inviarli di nuovo da Il mio account → Impostazioni → Verifica account.',
    es: 'La verificación de su identidad no se ha completado. Motivo: {reason}. Puede corregir los datos o las fotos y enviarlos de nuevo en Mi cuenta → Ajustes → Verificación de la cuenta.',
    ar: 'لم تنجح عملية التحقق من هويتك. السبب: {reason}. يمكنك تصحيح البيانات أو الصور وإعادة الإرسال من حسابي ← الإعدادات ← التحقق من الحساب.',
    hk: '您的身份驗證未獲通過。原因：{reason}。您可在「我的帳戶 → 設定 → 帳戶驗證」修正資料或照片後重新提交。',
    zh: '您的身份验证未通过。原因：{reason}。您可在“我的账户 → 设置 → 账户验证”修改资料或照片后重新提交。',
  },
} satisfies Record<string, Record<Language, string>>;

export type NoticeKind = keyof typeof TEMPLATES;

/** Parameters that are words, not data: stored as a token, named in the reader's language. */
const WORDS: Record<string, Record<string, Record<Language, string>>> = {
  book: {
    demo: {
      en: 'demo',
      ja: 'デモ',
      ko: '모의',
      de: 'Demo',
      fr: 'démo',
      it: 'demo',
      es: 'demo',
      ar: 'التجريبي',
      hk: '模擬',
      zh: '模拟',
    },
    live: {
      en: 'live',
      ja: 'リアル',
      ko: '실전',
      de: 'Live',
      fr: 'réel',
      it: 'reale',
      es: 'real',
      ar: 'الحقيقي',
      hk: '真實',
      zh: '实盘',
    },
  },
};

function isKind(kind: string): kind is NoticeKind {
  return Object.hasOwn(TEMPLATES, kind);
}

/** A notice's text in one language from its kind and parameters. */
export function renderNotice(kind: NoticeKind, language: Language, params: Record<string, string>): string {
  let content: string = TEMPLATES[kind][language];
  for (const [key, value] of Object.entries(params)) {
    const word = WORDS[key]?.[value]?.[language];
    content = content.replaceAll(`{${key}}`, word ?? value);
  }
  return content;
}

/** What the customer reads: made now in their language; a notice without parameters as it was written. */
export type NoticeView = { id: number; noticeContent: string; readState: 0 | 1; createdAt: string };

/**
 * Notices to customers (spec §3, §4). Other modules create them here with a kind and parameters;
 * the customer lists them, each rendered in the language of that request (so a language change
 * shows every notice in the new language), and reading one marks it read. The text in the
 * language at creation is stored too, and notices kept from before parameters were stored show
 * it. A notice is only ever the owner's.
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
    return insertNotice(tx, { userId, kind, params, content });
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
