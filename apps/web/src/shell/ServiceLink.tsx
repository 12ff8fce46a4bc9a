import { serviceChatLanguage } from '@swx/contract';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../app/state.ts';
import { Icon } from './icons.tsx';

/** The service chat opens /service.html in a new window with `language` and `clientId` (spec §7). */
export function serviceUrl(language: string, user: { id: number; userName: string } | null): string {
  const search = new URLSearchParams({ language: serviceChatLanguage(language) });
  if (user) search.set('clientId', String(user.id || user.userName));
  return `/service.html?${search.toString()}`;
}

export function ServiceLink() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const user = useClientState((s) => s.userInfo);
  return (
    <a
      className="icon-button"
      href={serviceUrl(language, user)}
      target="_blank"
      rel="noopener"
      aria-label={t('a11y.service')}
    >
      <Icon name="service" />
    </a>
  );
}
