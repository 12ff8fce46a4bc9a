import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { callApi } from '../../app/api.ts';
import { clearSession, useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { CreditScoreCard } from '../kyc/CreditScoreCard.tsx';
import './account.css';

/** The account screens, in the order the profile lists them: a path and its title key. */
const LINKS = [
  ['/profile/orders', 'orders'],
  ['/profile/balance', 'balance'],
  ['/profile/deposit', 'deposit'],
  ['/profile/withdraw', 'withdraw'],
  ['/profile/addresses', 'addresses'],
  ['/profile/wallet', 'custody'],
  ['/profile/deposits', 'deposits'],
  ['/profile/withdrawals', 'withdrawals'],
  ['/swap', 'swap'],
  ['/financial/cryptoInvest', 'cryptoInvest'],
  ['/financial/vipInvest', 'vipInvest'],
  ['/financial/myInvest/fund', 'myInvest'],
  ['/loan/records', 'loanRecords'],
  ['/profile/contract', 'loanContract'],
  ['/profile/repayment', 'loanRepayment'],
  ['/profile/credit', 'creditScore'],
  ['/profile/transactions', 'transactions'],
  ['/profile/notification', 'notification'],
  ['/profile/settings', 'settings'],
  ['/profile/verification', 'verification'],
  ['/profile/invite', 'invite'],
  ['/help', 'help'],
] as const;

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
