import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { CreditScoreCard } from '../kyc/CreditScoreCard.tsx';
import { LimitCard } from './Browse.tsx';
import { LoanList } from './MyLoans.tsx';
import { LoanPage } from './parts.tsx';
import { loanQueries } from './queries.ts';

/** The profile's contract entry (/profile/contract): my signed loan agreements, each a PDF to save. */
export function Contracts() {
  const { t } = useTranslation();
  return (
    <LoanPage title={t('title.loanContract')}>
      {(userId) => (
        <div className="product-stack">
          <p className="muted product-intro">{t('loan.contracts.intro')}</p>
          <LoanList
            userId={userId}
            links="agreement"
            filter={(loan) => loan.state !== 'rejected'}
            empty={t('loan.contracts.none')}
          />
        </div>
      )}
    </LoanPage>
  );
}

/** The profile's repayment entry (/profile/repayment): loans with money owed, each with the way to repay. */
export function Repayments() {
  const { t } = useTranslation();
  return (
    <LoanPage title={t('title.loanRepayment')}>
      {(userId) => (
        <div className="product-stack">
          <p className="muted product-intro">{t('loan.repayments.intro')}</p>
          <LoanList
            userId={userId}
            links="repay"
            filter={(loan) => loan.state === 'repaying' || loan.state === 'expired'}
            empty={t('loan.repayments.none')}
          />
        </div>
      )}
    </LoanPage>
  );
}

function CreditBody({ userId }: { userId: number }) {
  const query = useQuery(loanQueries.products(userId));
  return (
    <div className="product-stack">
      <CreditScoreCard />
      {!query.isSuccess ? <QueryState query={query} /> : <LimitCard limit={query.data.limit} score={false} />}
    </div>
  );
}

/** The profile's credit-score entry (/profile/credit): the score with its rules, and the loan limit it gives. */
export function Credit() {
  const { t } = useTranslation();
  return <LoanPage title={t('title.creditScore')}>{(userId) => <CreditBody userId={userId} />}</LoanPage>;
}
