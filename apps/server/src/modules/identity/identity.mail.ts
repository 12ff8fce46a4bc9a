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

export type SecurityEvent = 'passwordChanged' | 'totpEnabled' | 'totpDisabled';

/**
 * Security notices in each language: the event, when and from where, and what to do when it was
 * not the account holder. {time} is UTC, {device} the browser and system, {ip} the masked address.
 */
const SECURITY: Record<
  Language,
  { subject: Record<SecurityEvent, string>; body: Record<SecurityEvent, string>; footer: string }
> = {
  en: {
    subject: {
      passwordChanged: 'Your SWX password was changed',
      totpEnabled: 'Two-step verification is on for your SWX account',
      totpDisabled: 'Two-step verification was turned off for your SWX account',
    },
    body: {
      passwordChanged:
        'The password of your SWX account was changed on {time} (UTC) from {device}, address {ip}. Every other device was signed out.',
      totpEnabled:
        'Two-step verification was turned on for your SWX account on {time} (UTC) from {device}, address {ip}.',
      totpDisabled:
        'Two-step verification was turned off for your SWX account on {time} (UTC) from {device}, address {ip}.',
    },
    footer: 'If this was not you, reset your password at once and contact customer service.',
  },
  ja: {
    subject: {
      passwordChanged: 'SWX のパスワードが変更されました',
      totpEnabled: 'SWX アカウントの 2 段階認証が有効になりました',
      totpDisabled: 'SWX アカウントの 2 段階認証が無効になりました',
    },
    body: {
      passwordChanged:
        '{time}（UTC）に {device}（アドレス {ip}）から SWX アカウントのパスワードが変更されました。他のすべての端末はログアウトされました。',
      totpEnabled:
        '{time}（UTC）に {device}（アドレス {ip}）から SWX アカウントの 2 段階認証が有効になりました。',
      totpDisabled:
        '{time}（UTC）に {device}（アドレス {ip}）から SWX アカウントの 2 段階認証が無効になりました。',
    },
    footer: 'お心当たりがない場合は、すぐにパスワードを再設定し、カスタマーサービスにご連絡ください。',
  },
  ko: {
    subject: {
      passwordChanged: 'SWX 비밀번호가 변경되었습니다',
      totpEnabled: 'SWX 계정의 2단계 인증이 켜졌습니다',
      totpDisabled: 'SWX 계정의 2단계 인증이 꺼졌습니다',
    },
    body: {
      passwordChanged:
        '{time}(UTC)에 {device}(주소 {ip})에서 SWX 계정 비밀번호가 변경되었습니다. 다른 모든 기기는 로그아웃되었습니다.',
      totpEnabled: '{time}(UTC)에 {device}(주소 {ip})에서 SWX 계정의 2단계 인증이 켜졌습니다.',
      totpDisabled: '{time}(UTC)에 {device}(주소 {ip})에서 SWX 계정의 2단계 인증이 꺼졌습니다.',
    },
    footer: '본인이 아니라면 즉시 비밀번호를 재설정하고 고객 서비스에 문의하세요.',
  },
  de: {
    subject: {
      passwordChanged: 'Ihr SWX-Passwort wurde geändert',
      totpEnabled: 'Die Zwei-Schritt-Verifizierung ist für Ihr SWX-Konto aktiv',
      totpDisabled: 'Die Zwei-Schritt-Verifizierung wurde für Ihr SWX-Konto ausgeschaltet',
    },
    body: {
      passwordChanged:
        'Das Passwort Ihres SWX-Kontos wurde am {time} (UTC) von {device}, Adresse {ip}, geändert. Alle anderen Geräte wurden abgemeldet.',
      totpEnabled:
        'Die Zwei-Schritt-Verifizierung wurde am {time} (UTC) von {device}, Adresse {ip}, für Ihr SWX-Konto eingeschaltet.',
      totpDisabled:
        'Die Zwei-Schritt-Verifizierung wurde am {time} (UTC) von {device}, Adresse {ip}, für Ihr SWX-Konto ausgeschaltet.',
    },
    footer:
      'Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort zurück und wenden Sie sich an den Kundenservice.',
  },
  fr: {
    subject: {
      passwordChanged: 'Le mot de passe de votre compte SWX a été modifié',
      totpEnabled: 'La validation en deux étapes est activée sur votre compte SWX',
      totpDisabled: 'La validation en deux étapes a été désactivée sur votre compte SWX',
    },
    body: {
      passwordChanged:
        'Le mot de passe de votre compte SWX a été modifié le {time} (UTC) depuis {device}, adresse {ip}. Tous les autres appareils ont été déconnectés.',
      totpEnabled:
        'La validation en deux étapes a été activée sur votre compte SWX le {time} (UTC) depuis {device}, adresse {ip}.',
      totpDisabled:
        'La validation en deux étapes a été désactivée sur votre compte SWX le {time} (UTC) depuis {device}, adresse {ip}.',
    },
    footer:
      'Si ce n’était pas vous, réinitialisez immédiatement votre mot de passe et contactez le service client.',
  },
  it: {
    subject: {
      passwordChanged: 'La password del tuo account SWX è stata modificata',
      totpEnabled: 'La verifica in due passaggi è attiva sul tuo account SWX',
      totpDisabled: 'La verifica in due passaggi è stata disattivata sul tuo account SWX',
    },
    body: {
      passwordChanged:
        'La password del tuo account SWX è stata modificata il {time} (UTC) da {device}, indirizzo {ip}. Tutti gli altri dispositivi sono stati disconnessi.',
      totpEnabled:
        'La verifica in due passaggi è stata attivata sul tuo account SWX il {time} (UTC) da {device}, indirizzo {ip}.',
      totpDisabled:
        'La verifica in due passaggi è stata disattivata sul tuo account SWX il {time} (UTC) da {device}, indirizzo {ip}.',
    },
    footer: 'Se non sei stato tu, reimposta subito la password e contatta il servizio clienti.',
  },
  es: {
    subject: {
      passwordChanged: 'Se ha cambiado la contraseña de su cuenta SWX',
      totpEnabled: 'La verificación en dos pasos está activada en su cuenta SWX',
      totpDisabled: 'Se ha desactivado la verificación en dos pasos de su cuenta SWX',
    },
    body: {
      passwordChanged:
        'La contraseña de su cuenta SWX se cambió el {time} (UTC) desde {device}, dirección {ip}. Se ha cerrado la sesión en todos los demás dispositivos.',
      totpEnabled:
        'La verificación en dos pasos se activó en su cuenta SWX el {time} (UTC) desde {device}, dirección {ip}.',
      totpDisabled:
        'La verificación en dos pasos se desactivó en su cuenta SWX el {time} (UTC) desde {device}, dirección {ip}.',
    },
    footer: 'Si no ha sido usted, restablezca su contraseña de inmediato y contacte con atención al cliente.',
  },
  ar: {
    subject: {
      passwordChanged: 'تم تغيير كلمة مرور حسابك في SWX',
      totpEnabled: 'تم تفعيل التحقق بخطوتين لحسابك في SWX',
      totpDisabled: 'تم إيقاف التحقق بخطوتين لحسابك في SWX',
    },
    body: {
      passwordChanged:
        'تم تغيير كلمة مرور حسابك في SWX في {time} (بالتوقيت العالمي) من {device}، العنوان {ip}. تم تسجيل الخروج من جميع الأجهزة الأخرى.',
      totpEnabled:
        'تم تفعيل التحقق بخطوتين لحسابك في SWX في {time} (بالتوقيت العالمي) من {device}، العنوان {ip}.',
      totpDisabled:
        'تم إيقاف التحقق بخطوتين لحسابك في SWX في {time} (بالتوقيت العالمي) من {device}، العنوان {ip}.',
    },
    footer: 'إذا لم تكن أنت، فأعد تعيين كلمة المرور فورًا وتواصل مع خدمة العملاء.',
  },
  hk: {
    subject: {
      passwordChanged: '您的 SWX 密碼已更改',
      totpEnabled: '您的 SWX 帳戶已開啟兩步驗證',
      totpDisabled: '您的 SWX 帳戶已關閉兩步驗證',
    },
    body: {
      passwordChanged:
        '您的 SWX 帳戶密碼已於 {time}（UTC）由 {device}（地址 {ip}）更改，所有其他裝置均已登出。',
      totpEnabled: '您的 SWX 帳戶已於 {time}（UTC）由 {device}（地址 {ip}）開啟兩步驗證。',
      totpDisabled: '您的 SWX 帳戶已於 {time}（UTC）由 {device}（地址 {ip}）關閉兩步驗證。',
    },
    footer: '如非您本人操作，請立即重設密碼並聯絡客戶服務。',
  },
  zh: {
    subject: {
      passwordChanged: '您的 SWX 密码已修改',
      totpEnabled: '您的 SWX 账户已开启两步验证',
      totpDisabled: '您的 SWX 账户已关闭两步验证',
    },
    body: {
      passwordChanged:
        '您的 SWX 账户密码已于 {time}（UTC）由 {device}（地址 {ip}）修改，其他所有设备均已退出登录。',
      totpEnabled: '您的 SWX 账户已于 {time}（UTC）由 {device}（地址 {ip}）开启两步验证。',
      totpDisabled: '您的 SWX 账户已于 {time}（UTC）由 {device}（地址 {ip}）关闭两步验证。',
    },
    footer: '如非本人操作，请立即重置密码并联系客服。',
  },
};

export function securityMail(
  language: Language,
  event: SecurityEvent,
  facts: { time: Date; device: string; ip: string },
): { subject: string; text: string } {
  const t = SECURITY[language];
  const time = facts.time.toISOString().slice(0, 16).replace('T', ' ');
  const body = t.body[event]
    .replace('{time}', time)
    .replace('{device}', facts.device || '?')
    .replace('{ip}', facts.ip || '?');
  return { subject: t.subject[event], text: `${body}\n\n${t.footer}` };
}

/** The verification-code SMS in each language: short (one segment), {code} and {minutes}. */
const SMS: Record<Language, string> = {
  en: 'SWX: your verification code is {code}. It expires in {minutes} minutes. Never share it.',
  ja: 'SWX：認証コードは {code} です。有効期限は {minutes} 分です。他人に教えないでください。',
  ko: 'SWX: 인증 코드는 {code}입니다. {minutes}분 후 만료됩니다. 타인에게 알려주지 마세요.',
  de: 'SWX: Ihr Bestätigungscode lautet {code}. Er läuft in {minutes} Minuten ab. Geben Sie ihn nie weiter.',
  fr: 'SWX : votre code de vérification est {code}. Il expire dans {minutes} minutes. Ne le partagez jamais.',
  it: 'SWX: il tuo codice di verifica è {code}. Scade tra {minutes} minuti. Non condividerlo mai.',
  es: 'SWX: su código de verificación es {code}. Caduca en {minutes} minutos. No lo comparta nunca.',
  ar: 'SWX: رمز التحقق الخاص بك هو {code}. تنتهي صلاحيته خلال {minutes} دقائق. لا تشاركه مع أحد.',
  hk: 'SWX：您的驗證碼為 {code}，{minutes} 分鐘內有效。請勿向任何人透露。',
  zh: 'SWX：您的验证码为 {code}，{minutes} 分钟内有效。请勿泄露给他人。',
};

export function codeSms(language: Language, code: string, minutes: number): string {
  return SMS[language].replace('{code}', code).replace('{minutes}', String(minutes));
}
