import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { callApi } from '../../app/api.ts';
import { clearSession, useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { CreditScoreCard } from '../kyc/CreditScoreCard.tsx';
import { AccountPage } from './AccountPage.tsx';
import './account.css';

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
          <li>
            <Link to="/profile/orders">{t('title.orders')}</Link>
          </li>
          <li>
            <Link to="/profile/balance">{t('title.balance')}</Link>
          </li>
          <li>
            <Link to="/profile/transactions">{t('title.transactions')}</Link>
          </li>
          <li>
            <Link to="/profile/notification">{t('title.notification')}</Link>
          </li>
          <li>
            <Link to="/profile/settings">{t('title.settings')}</Link>
          </li>
          <li>
            <Link to="/profile/verification">{t('title.verification')}</Link>
          </li>
          <li>
            <Link to="/profile/invite">{t('title.invite')}</Link>
          </li>
          <li>
            <Link to="/help">{t('title.help')}</Link>
          </li>
        </ul>
      </nav>
      <button type="button" className="button ghost" onClick={() => void logout()}>
        {t('auth.logout')}
      </button>
    </AccountPage>
  );
}
