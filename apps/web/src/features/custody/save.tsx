import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { announce } from '../../ui/announce.ts';
import { Loading } from '../../ui/PageState.tsx';
import { useVault } from './parts.tsx';
import { saveVault } from './store.ts';
import { sealVault, type VaultOrigin } from './vault.ts';

/** Says that a wallet already on this device is replaced (its words, if written down, still restore it). */
export function ReplacesNotice({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const vault = useVault(customerId);
  if (vault.status === 'loading') return <Loading />;
  return vault.status === 'ready' ? (
    <p className="custody-warning" data-testid="replaces">
      {t('custody.replaces')}
    </p>
  ) : null;
}

/**
 * Seals the words under a passphrase, stores them for this customer, and goes to the wallet. The
 * words leave the component's state with it.
 */
export function useSave(customerId: number) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return async (
    mnemonic: string,
    passphrase: string,
    how: { backupVerified: boolean; origin: VaultOrigin },
  ) => {
    // The key code is loaded here, when the addresses are derived (not with the screen).
    const { addressesOf } = await import('./keys.ts');
    const record = await sealVault({
      customerId,
      mnemonic,
      passphrase,
      addresses: addressesOf(mnemonic),
      ...how,
    });
    await saveVault(record);
    announce(t('custody.saved'));
    navigate('/profile/wallet', { replace: true });
  };
}
