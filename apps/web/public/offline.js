// The offline page (offline.html) shows its message in the language the app keeps in its cookie.
const language = /(?:^|;\s*)swx_lang=([a-z]{2})(?:;|$)/.exec(document.cookie)?.[1] ?? 'en';
const chosen =
  document.querySelector(`[data-language="${language}"]`) ?? document.querySelector('[data-language="en"]');
for (const message of document.querySelectorAll('[data-language]')) message.hidden = message !== chosen;
if (chosen) {
  document.documentElement.lang = chosen.lang;
  document.documentElement.dir = chosen.dir;
  document.title = chosen.querySelector('h1')?.textContent ?? document.title;
}
