import { LANGUAGE_NAMES, type Language } from '@swx/contract';
import { useEffect, useState } from 'react';
import { applyDocumentLanguage, LANGUAGES, staffLanguage, textFor } from './text.ts';

/** The staff back office at /admin. Its sign-in and sections arrive with the identity issue. */
export function BackOffice() {
  const [language, setLanguage] = useState<Language>(staffLanguage);
  const text = textFor(language);
  useEffect(() => {
    applyDocumentLanguage(language);
    document.title = text.title;
  }, [language, text.title]);
  return (
    <div className="admin">
      <header className="admin-bar">
        <h1>{text.title}</h1>
        <label>
          <span className="visually-hidden">Language</span>
          <select
            value={language}
            onChange={(event) => {
              const next = event.target.value as Language;
              localStorage.setItem('adminLanguage', next);
              setLanguage(next);
            }}
          >
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
      </header>
      <main className="admin-main">
        <p className="notice" role="status">
          {text.signInSoon}
        </p>
        <h2>{text.sections}</h2>
        <ul className="sections">
          {[text.customers, text.reviews, text.content, text.products, text.support].map((name) => (
            <li key={name} aria-disabled="true">
              {name}
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
