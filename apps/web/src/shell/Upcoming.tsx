import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { routeMeta } from '../app/routes.ts';

/** A route whose feature arrives with a later issue: inside the shell, with its own localized title. */
export default function Upcoming() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="container page">
      <h1 className="page-title">{t(`title.${routeMeta(pathname).title}`)}</h1>
      <section className="card upcoming" aria-labelledby="upcoming-title">
        <h2 id="upcoming-title">{t('upcoming.title')}</h2>
        <p>{t('upcoming.text')}</p>
      </section>
    </div>
  );
}
