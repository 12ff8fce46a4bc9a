import { adminCalls, type InviteTerms, LANGUAGE_TAGS, type Language } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { allowed, callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Money, plain, useQueryState } from '../DataTable.tsx';
import { Facts } from '../Facts.tsx';
import { Done, Field, SubmitRow } from '../Field.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { issuesOf, type Problems, useDraftForm } from '../useDraftForm.ts';
import { InvitesScreen, Loading } from './InvitesScreen.tsx';
import { type InviteText, useInviteText } from './invites.text.ts';
import {
  bpsToPercent,
  checkSettings,
  fieldOfServer,
  percentToBps,
  type SettingsBody,
  type SettingsDraft,
} from './terms.ts';

type S = InviteText['settings'];

/** A number of basis points as staff read it: "2,000". */
const bpsText = (language: Language, bps: number) =>
  new Intl.NumberFormat(LANGUAGE_TAGS[language]).format(bps);

/** The terms in force, as customers read them on their invite page. */
function TermsFacts({ terms, s }: { terms: InviteTerms; s: S }) {
  const { language } = useBackOffice();
  return (
    <Facts
      testId="invite-terms"
      rows={[
        [
          s.share,
          fill(s.shareValue, {
            percent: bpsToPercent(terms.shareBps),
            bps: bpsText(language, terms.shareBps),
          }),
        ],
        [s.rebates, fill(s.rebatesValue, { choices: terms.rebateChoices.map(bpsToPercent).join(', ') })],
        [s.rewardDays, fill(s.rewardDaysValue, { days: terms.rewardDays })],
        [s.holdDays, fill(s.holdDaysValue, { days: terms.holdDays })],
        [s.dailyCap, <Money key="cap" value={terms.dailyCapUsdt} asset="USDT" />],
        [s.status, terms.enabled ? s.on : <strong key="off">{s.off}</strong>],
      ]}
    />
  );
}

/** The server's field issues (10026) as the form's fields to fix. */
function problemsFromServer(data: unknown): Problems<'share' | 'cap'> {
  const problems: Problems<'share' | 'cap'> = new Map();
  for (const { name } of issuesOf(data)) {
    const field = fieldOfServer(name);
    if (field) problems.set(field, field === 'sharePercent' ? 'share' : 'cap');
  }
  return problems;
}

/** The draft of new terms, checked here and by the server (its field issues mark the fields too). */
function useTermsForm(terms: InviteTerms, onSaved: (saved: InviteTerms) => void) {
  return useDraftForm<SettingsDraft, SettingsBody, InviteTerms, 'share' | 'cap'>({
    initial: () => ({
      sharePercent: bpsToPercent(terms.shareBps),
      dailyCapUsdt: plain(terms.dailyCapUsdt),
      enabled: terms.enabled,
    }),
    check: (draft) => {
      const { body, problems } = checkSettings(draft);
      return { body: body as SettingsBody, problems };
    },
    save: (body) => callAdmin('updateInviteSettings', { body }),
    invalidate: keys.invites,
    onSaved,
    fromServer: problemsFromServer,
  });
}

/** The share typed in per cent, and the basis points it is saved as (said as it is typed). */
function ShareField({
  s,
  value,
  error,
  onChange,
}: {
  s: S;
  value: string;
  error: boolean;
  onChange: (value: string) => void;
}) {
  const { language } = useBackOffice();
  const bps = percentToBps(value);
  return (
    <div className="stack">
      <Field
        label={s.sharePercent}
        hint={s.shareHint}
        name="sharePercent"
        dir="ltr"
        inputMode="decimal"
        autoComplete="off"
        maxLength={6}
        value={value}
        error={error ? s.shareError : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="muted invite-share" aria-live="polite">
        {bps === null ? '' : fill(s.shareBps, { bps: bpsText(language, bps) })}
      </p>
    </div>
  );
}

/** The form of new terms (admins): the share in per cent (sent as basis points), the daily cap, the switch. */
function TermsForm({
  terms,
  s,
  onSaved,
}: {
  terms: InviteTerms;
  s: S;
  onSaved: (saved: InviteTerms) => void;
}) {
  const { text } = useBackOffice();
  const headingId = useId();
  const form = useTermsForm(terms, onSaved);
  const { draft, set, problems } = form;
  return (
    <form
      className="panel"
      aria-labelledby={headingId}
      onSubmit={form.submit}
      noValidate
      data-testid="invite-terms-form"
    >
      <h3 id={headingId}>{s.editHeading}</h3>
      <div className="kit-fields">
        <ShareField
          s={s}
          value={draft.sharePercent}
          error={problems.has('sharePercent')}
          onChange={(value) => set('sharePercent', value)}
        />
        <Field
          label={s.cap}
          hint={s.capHint}
          name="dailyCapUsdt"
          dir="ltr"
          inputMode="decimal"
          autoComplete="off"
          maxLength={30}
          value={draft.dailyCapUsdt}
          error={problems.has('dailyCapUsdt') ? s.capError : undefined}
          onChange={(e) => set('dailyCapUsdt', e.target.value)}
        />
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="enabled"
          checked={draft.enabled}
          onChange={(e) => set('enabled', e.target.checked)}
        />
        {s.enabled}
      </label>
      <SubmitRow
        failure={form.save.isError ? failureMessage(form.save.error, text.error.generic) : ''}
        busy={form.save.isPending}
        label={s.save}
      />
    </form>
  );
}

/**
 * The invite programme's settings (/admin/invites): the terms in force as customers read them,
 * and for admins the form of new ones (from the next day; the server audits the change). Finance
 * reads them.
 */
export function InviteSettings() {
  const { staff, language } = useBackOffice();
  const s = useInviteText().settings;
  const client = useQueryClient();
  const [done, setDone] = useState('');
  const query = useQuery({
    queryKey: keys.inviteSettings(language),
    queryFn: () => callAdmin('getInviteSettings'),
  });
  const { failure, onRetry } = useQueryState(query);
  const mayEdit = allowed(staff, adminCalls.updateInviteSettings);
  const terms = query.data;
  return (
    <InvitesScreen heading={s.heading}>
      <p className="muted">{s.intro}</p>
      {mayEdit ? null : <p className="muted">{s.readOnly}</p>}
      <Done message={done} />
      {terms ? (
        <>
          <h3>{s.current}</h3>
          <TermsFacts terms={terms} s={s} />
        </>
      ) : (
        <Loading failure={failure} onRetry={onRetry} />
      )}
      {terms && mayEdit ? (
        <TermsForm
          terms={terms}
          s={s}
          onSaved={(saved) => {
            client.setQueryData(keys.inviteSettings(language), saved);
            setDone(s.saved);
          }}
        />
      ) : null}
    </InvitesScreen>
  );
}
