import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * Log in and sign up, side by side: where a page needs a session it has not got, and in the top
 * bar. `primary` is the one drawn as the main button; `login` is where logging in starts (with a
 * return address when the page wants the customer back).
 */
export function LoginLinks({
  primary = 'login',
  login = '/pass/login',
}: {
  primary?: 'login' | 'signUp';
  login?: string;
}) {
  const { t } = useTranslation();
  const look = (link: 'login' | 'signUp') => (link === primary ? 'button primary' : 'button ghost');
  return (
    <>
      <Link className={look('login')} to={login}>
        {t('action.login')}
      </Link>
      <Link className={look('signUp')} to="/pass/register">
        {t('action.signUp')}
      </Link>
    </>
  );
}
