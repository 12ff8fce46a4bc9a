// The service chat page (spec §7): query `language` (zh or en) and `clientId`. A page of its own
// (service.html, a second entry of the build), on the app's design tokens.
import '../styles/tokens.css';
import './service.css';

const TEXT: Record<'en' | 'zh', Record<'title' | 'intro' | 'mail' | 'client', string>> = {
  en: {
    title: 'Customer service',
    intro: 'Online chat with our support team opens on this page soon.',
    mail: 'Until then, write to us at',
    client: 'Your customer reference',
  },
  zh: {
    title: '在线客服',
    intro: '在线客服聊天即将在此页面开放。',
    mail: '在此之前，请发送邮件至',
    client: '您的客户编号',
  },
};
const query = new URLSearchParams(location.search);
const language = query.get('language') === 'zh' ? 'zh' : 'en';
const text = TEXT[language];
document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
document.title = `SWX · ${text.title}`;
for (const element of document.querySelectorAll<HTMLElement>('[data-text]')) {
  const key = element.dataset.text;
  if (key === 'title' || key === 'intro' || key === 'mail' || key === 'client')
    element.textContent = text[key];
}
const clientId = query.get('clientId');
const client = document.getElementById('client');
if (clientId && client) {
  client.textContent = `${text.client}: ${clientId.slice(0, 64)}`;
  client.hidden = false;
}
fetch('/swx/customer/index/getParamByKey/supportEmail')
  .then((response) => response.json() as Promise<{ code?: number; data?: { value?: unknown } }>)
  .then((body) => {
    const value = body.data?.value;
    const mail = document.getElementById('mail');
    if (body.code !== 200 || typeof value !== 'string' || !(mail instanceof HTMLAnchorElement)) return;
    mail.textContent = value;
    mail.href = `mailto:${value}`;
  })
  .catch(() => undefined);
