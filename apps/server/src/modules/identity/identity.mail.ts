import type { Language } from '@swx/contract';

/** The verification-code mail in each language: subject and body with {code} and {minutes}. */
const TEXT: Record<Language, { subject: string; body: string }> = {
  en: {
    subject: 'Your SWX verification code',
    body: 'Your verification code is {code}. It expires in {minutes} minutes. If you did not ask for it, you can ignore this mail.',
  },
  ja: {
    subject: 'SWX 認証コード',
    body: '認証コードは {code} です。有効期限は {minutes} 分です。心当たりがない場合は、このメールを無視してください。',
  },
  ko: {
    subject: 'SWX 인증 코드',
    body: '인증 코드는 {code}입니다. {minutes}분 후에 만료됩니다. 요청하지 않으셨다면 이 메일을 무시하셔도 됩니다.',
  },
  de: {
    subject: 'Ihr SWX-Bestätigungscode',
    body: 'Ihr Bestätigungscode lautet {code}. Er läuft in {minutes} Minuten ab. Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren.',
  },
  fr: {
    subject: 'Votre code de vérification SWX',
    body: 'Votre code de vérification est {code}. Il expire dans {minutes} minutes. Si vous ne l’avez pas demandé, ignorez ce message.',
  },
  it: {
    subject: 'Il tuo codice di verifica SWX',
    body: 'Il tuo codice di verifica è {code}. Scade tra {minutes} minuti. Se non l’hai richiesto, puoi ignorare questa email.',
  },
  es: {
    subject: 'Su código de verificación de SWX',
    body: 'Su código de verificación es {code}. Caduca en {minutes} minutos. Si no lo ha solicitado, puede ignorar este correo.',
  },
  ar: {
    subject: 'رمز التحقق من SWX',
    body: 'رمز التحقق الخاص بك هو {code}. تنتهي صلاحيته خلال {minutes} دقائق. إذا لم تطلبه، يمكنك تجاهل هذه الرسالة.',
  },
  hk: {
    subject: '您的 SWX 驗證碼',
    body: '您的驗證碼為 {code}，將於 {minutes} 分鐘後失效。如非您本人申請，請忽略此郵件。',
  },
  zh: {
    subject: '您的 SWX 验证码',
    body: '您的验证码为 {code}，将在 {minutes} 分钟后失效。如非本人操作，请忽略此邮件。',
  },
};

export function codeMail(
  language: Language,
  code: string,
  minutes: number,
): { subject: string; text: string } {
  const t = TEXT[language];
  return { subject: t.subject, text: t.body.replace('{code}', code).replace('{minutes}', String(minutes)) };
}
