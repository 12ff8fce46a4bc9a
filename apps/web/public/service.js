// The service chat page (spec §7): query `language` (zh or en) and `clientId`.
const TEXT = {
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
for (const element of document.querySelectorAll('[data-text]'))
  element.textContent = text[element.dataset.text];
const clientId = query.get('clientId');
if (clientId) {
  const client = document.getElementById('client');
  client.textContent = `${text.client}: ${clientId.slice(0, 64)}`;
  client.hidden = false;
}
fetch('/swx/customer/index/getParamByKey/supportEmail')
  .then((response) => response.json())
  .then((body) => {
    if (body.code !== 200) return;
    const mail = document.getElementById('mail');
    mail.textContent = body.data.value;
    mail.href = `mailto:${body.data.value}`;
  })
  .catch(() => undefined);
