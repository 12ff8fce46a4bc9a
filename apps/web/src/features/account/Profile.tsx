import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { callApi } from '../../app/api.ts';
import { ROUTES } from '../../app/routes.ts';
import { clearSession, useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { CreditScoreCard } from '../kyc/CreditScoreCard.tsx';
import './account.css';

/** The account screens, in the order the profile lists them: the link and its title key (routes' `account`). */
const LINKS = ROUTES.flatMap((route) =>
  route.account
    ? [{ order: route.account.order, to: route.account.to ?? route.path, title: route.title }]
    : [],
)
  .sort((a, b) => a.order - b.order)
  .map(({ to, title }) => [to, title] as const);

/** My account: who is logged in, the demo/live switch, the account screens, logout. */
export default function Profile() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useClientState((s) => s.userInfo);
  const logout = async () => {
    // The server forgets the session first; the browser forgets it whatever the answer.
    await callApi('logout').catch(() => undefined);
    clearSession();
    navigate('/pass/login', { replace: true });
  };
  return (
    <AccountPage title={t('title.profile')}>
      <section className="card account-card">
        <p className="muted small">{t('account.userName')}</p>
        <p className="account-name">{user?.userName}</p>
        <BookSwitch />
      </section>
      <CreditScoreCard />
      <nav className="card account-links" aria-label={t('account.links')}>
        <ul>
          {LINKS.map(([to, title]) => (
            <li key={to}>
              <Link to={to}>{t(`title.${title}`)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" className="button ghost" onClick={() => void logout()}>
        {t('auth.logout')}
      </button>
    </AccountPage>
  );
}
