import { LOAN_AGREEMENT_PATH, type LoanRecord } from '@swx/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../app/api.ts';
import { FormError } from '../../ui/Field.tsx';

/**
 * The signed agreement (a PDF with the figures and the signature): fetched with the session, as
 * only its owner may read it, and saved.
 */
export function AgreementLink({ loan }: { loan: Pick<LoanRecord, 'id' | 'productName'> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const download = async () => {
    setBusy(true);
    setFailure('');
    try {
      await downloadFile(
        LOAN_AGREEMENT_PATH.replace(':id', String(loan.id)),
        {},
        `loan-agreement-${loan.id}.pdf`,
        'application/pdf',
      );
    } catch {
      setFailure(t('loan.agreementFile.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="product-offer">
      <button
        type="button"
        className="button ghost"
        data-testid="agreement-download"
        disabled={busy}
        onClick={() => void download()}
      >
        {t('loan.agreementFile.download')}
        <span className="visually-hidden">
          {' '}
          {t('loan.agreementFile.of', { name: loan.productName, id: loan.id })}
        </span>
      </button>
      <FormError message={failure} />
    </div>
  );
}
