import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { CalendarSection } from './Calendar.tsx';
import { StatementDownload, StatementList, TaxExport } from './Statements.tsx';
import { papersTexts } from './texts.ts';

/** Statements, the tax export and the obligations calendar, in the book chosen. */
export default function PapersPage() {
  use(papersTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.papers')} book>
      <section className="card">
        <BookSwitch />
      </section>
      <StatementDownload />
      {user ? <StatementList userId={user.id} /> : null}
      <TaxExport />
      {user ? <CalendarSection userId={user.id} /> : null}
    </AccountPage>
  );
}
