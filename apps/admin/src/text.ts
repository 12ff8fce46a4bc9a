import { isRtl, LANGUAGE_TAGS, LANGUAGES, type Language, languageFromAcceptLanguage } from '@swx/contract';

/** Back-office text in the ten languages; staff read the language their browser asks for. */
type Text = {
  title: string;
  signInSoon: string;
  sections: string;
  customers: string;
  reviews: string;
  content: string;
  products: string;
  support: string;
};

const TEXT: Record<Language, Text> = {
  en: {
    title: 'SWX back office',
    signInSoon:
      'Staff sign-in with two-factor authentication opens with the identity release. Until then no back-office action is available.',
    sections: 'Sections',
    customers: 'Customers',
    reviews: 'Reviews',
    content: 'Content',
    products: 'Products',
    support: 'Support chat',
  },
  ja: {
    title: 'SWX 管理画面',
    signInSoon:
      '二要素認証によるスタッフのサインインは、本人確認機能のリリースとともに公開されます。それまでは管理操作はできません。',
    sections: 'セクション',
    customers: '顧客',
    reviews: '審査',
    content: 'コンテンツ',
    products: '商品',
    support: 'サポートチャット',
  },
  ko: {
    title: 'SWX 백오피스',
    signInSoon:
      '2단계 인증을 사용하는 직원 로그인은 신원 기능 출시와 함께 열립니다. 그 전에는 백오피스 작업을 할 수 없습니다.',
    sections: '섹션',
    customers: '고객',
    reviews: '심사',
    content: '콘텐츠',
    products: '상품',
    support: '지원 채팅',
  },
  de: {
    title: 'SWX Backoffice',
    signInSoon:
      'Die Mitarbeiteranmeldung mit Zwei-Faktor-Authentifizierung wird mit dem Identitäts-Release freigeschaltet. Bis dahin sind keine Backoffice-Aktionen möglich.',
    sections: 'Bereiche',
    customers: 'Kunden',
    reviews: 'Prüfungen',
    content: 'Inhalte',
    products: 'Produkte',
    support: 'Support-Chat',
  },
  fr: {
    title: 'Back-office SWX',
    signInSoon:
      'La connexion du personnel avec authentification à deux facteurs ouvrira avec la version identité. D’ici là, aucune action de back-office n’est disponible.',
    sections: 'Rubriques',
    customers: 'Clients',
    reviews: 'Contrôles',
    content: 'Contenus',
    products: 'Produits',
    support: 'Chat support',
  },
  it: {
    title: 'Back office SWX',
    signInSoon:
      'L’accesso del personale con autenticazione a due fattori sarà attivato con il rilascio dell’identità. Fino ad allora nessuna azione di back office è disponibile.',
    sections: 'Sezioni',
    customers: 'Clienti',
    reviews: 'Revisioni',
    content: 'Contenuti',
    products: 'Prodotti',
    support: 'Chat di assistenza',
  },
  es: {
    title: 'Back office de SWX',
    signInSoon:
      'El acceso del personal con autenticación de dos factores se abrirá con la versión de identidad. Hasta entonces no hay acciones de back office disponibles.',
    sections: 'Secciones',
    customers: 'Clientes',
    reviews: 'Revisiones',
    content: 'Contenido',
    products: 'Productos',
    support: 'Chat de soporte',
  },
  ar: {
    title: 'المكتب الخلفي لـ SWX',
    signInSoon:
      'سيُتاح تسجيل دخول الموظفين بالمصادقة الثنائية مع إصدار الهوية. حتى ذلك الحين لا تتوفر أي إجراءات في المكتب الخلفي.',
    sections: 'الأقسام',
    customers: 'العملاء',
    reviews: 'المراجعات',
    content: 'المحتوى',
    products: 'المنتجات',
    support: 'دردشة الدعم',
  },
  hk: {
    title: 'SWX 後台',
    signInSoon: '員工以雙重認證登入的功能將隨身份功能發佈開放。在此之前，後台暫不提供任何操作。',
    sections: '版面',
    customers: '客戶',
    reviews: '審核',
    content: '內容',
    products: '產品',
    support: '客服對話',
  },
  zh: {
    title: 'SWX 后台',
    signInSoon: '员工使用双重认证登录的功能将随身份功能发布开放。在此之前，后台暂不提供任何操作。',
    sections: '栏目',
    customers: '客户',
    reviews: '审核',
    content: '内容',
    products: '产品',
    support: '客服聊天',
  },
};

export function staffLanguage(): Language {
  const stored = localStorage.getItem('adminLanguage');
  const candidates = stored ? [stored] : (navigator.languages ?? [navigator.language]);
  return languageFromAcceptLanguage(candidates.join(','));
}

export function textFor(language: Language): Text {
  return TEXT[language];
}

export function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = LANGUAGE_TAGS[language];
  document.documentElement.dir = isRtl(language) ? 'rtl' : 'ltr';
}

export { LANGUAGES };
