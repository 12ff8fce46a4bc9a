import {
  adminCalls,
  LOAN_LIMIT_STEP_MAX,
  type LoanLimitProposal,
  loanLimitRule,
  type LoanLimitRule as Rule,
} from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { allowed, callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, useQueryState } from '../DataTable.tsx';
import { Facts } from '../Facts.tsx';
import { Done, Field, SubmitRow } from '../Field.tsx';
import { Proposals } from '../fourEyes/Proposals.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { percentToRatio, ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import { useLoanText } from './LoanProducts.tsx';
import type { LoanText } from './loans.text.ts';
import '../kit.css';

type T = LoanText['limitRule'];
type Draft = Record<'baseShare' | 'stepShare' | 'maxShare' | 'minLoanDays', string>;

const percent = (t: T, ratio: string) => fill(t.percentValue, { value: ratioToPercent(ratio) });

/** A rule in one line: base, step, highest, days. */
const ruleLine = (t: T, r: Rule) =>
  fill(t.ruleLine, {
    base: ratioToPercent(r.baseShare),
    step: ratioToPercent(r.stepShare),
    max: ratioToPercent(r.maxShare),
    days: String(r.minLoanDays),
  });

/** The draft as the contract's body, or the names of the fields to check. */
function bodyOf(d: Draft): { body: Rule | null; invalid: Set<string> } {
  const draft = {
    baseShare: percentToRatio(d.baseShare) ?? '',
    stepShare: percentToRatio(d.stepShare) ?? '',
    maxShare: percentToRatio(d.maxShare) ?? '',
    minLoanDays: /^\d{1,3}$/.test(d.minLoanDays.trim()) ? Number(d.minLoanDays) : -1,
  };
  const checked = loanLimitRule.safeParse(draft);
  const invalid = new Set(checked.success ? [] : checked.error.issues.map((i) => String(i.path[0] ?? '')));
  // The step is bounded, the base not above the highest (the server says so too: 10026).
  if (!invalid.has('stepShare') && Number(d.stepShare) > Number(ratioToPercent(LOAN_LIMIT_STEP_MAX)))
    invalid.add('stepShare');
  if (checked.success && Number(d.baseShare) > Number(d.maxShare)) invalid.add('baseShare');
  return { body: checked.success && invalid.size === 0 ? checked.data : null, invalid };
}

/** The form of a new rule: it applies once another admin approves it. */
function ProposeForm({ t, current, onDone }: { t: T; current: Rule; onDone: (message: string) => void }) {
  const { text } = useBackOffice();
  const client = useQueryClient();
  const headingId = useId();
  const [draft, setDraft] = useState<Draft>({
    baseShare: ratioToPercent(current.baseShare),
    stepShare: ratioToPercent(current.stepShare),
    maxShare: ratioToPercent(current.maxShare),
    minLoanDays: String(current.minLoanDays),
  });
  const [invalid, setInvalid] = useState(new Set<string>());
  const propose = useMutation({
    mutationFn: (body: Rule) => callAdmin('proposeLoanLimitRule', { body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.loans });
      onDone(t.proposed);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { body, invalid: bad } = bodyOf(draft);
    setInvalid(bad);
    if (body) propose.mutate(body);
  };
  const field = (name: keyof Draft, label: string, hint: string) => (
    <Field
      label={label}
      hint={hint}
      name={name}
      dir="ltr"
      inputMode="decimal"
      value={draft[name]}
      error={invalid.has(name) ? t.checkValue : undefined}
      onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
    />
  );
  return (
    <form
      className="panel"
      aria-labelledby={headingId}
      onSubmit={submit}
      noValidate
      data-testid="loan-limit-propose"
    >
      <h3 id={headingId}>{t.proposeHeading}</h3>
      <div className="kit-fields">
        {field('baseShare', t.base, t.baseHint)}
        {field('stepShare', t.step, fill(t.stepHint, { max: ratioToPercent(LOAN_LIMIT_STEP_MAX) }))}
        {field('maxShare', t.max, t.maxHint)}
        {field('minLoanDays', t.days, t.daysHint)}
      </div>
      <SubmitRow
        failure={propose.isError ? failureMessage(propose.error, text.error.generic) : ''}
        busy={propose.isPending}
        label={t.propose}
      />
    </form>
  );
}

/** A proposal's own column: the rule it proposes. */
const ruleColumns = (t: T): Column<LoanLimitProposal>[] => [
  { key: 'rule', header: t.rule, cell: (p) => ruleLine(t, p.rule) },
];

/**
 * The rule of customers' loan limits (/admin/loans/limit-rule): the share of each product's
 * maximum identity verification opens, the bounded step each loan repaid on time adds, the highest
 * share and the days a loan must run to count. Admins propose a change; another admin approves it
 * (four eyes); every step is audited. Customers read the rule on their loan screens.
 */
export function LoanLimitRule() {
  const { staff, language } = useBackOffice();
  const t = useLoanText().limitRule;
  const [done, setDone] = useState('');
  const query = useQuery({
    queryKey: [...keys.loans, language, 'limitRule'] as const,
    queryFn: () => callAdmin('loanLimitRules'),
  });
  const { loading, failure, onRetry } = useQueryState(query);
  const mayPropose = allowed(staff, adminCalls.proposeLoanLimitRule);
  const data = query.data;
  const current = data?.current;
  return (
    <Screen heading={t.heading}>
      <p className="muted">{t.intro}</p>
      {mayPropose ? null : <p className="muted">{t.readOnly}</p>}
      <Done message={done} />
      {current ? (
        <Facts
          testId="loan-limit-current"
          rows={[
            [t.base, percent(t, current.rule.baseShare)],
            [t.step, percent(t, current.rule.stepShare)],
            [t.max, percent(t, current.rule.maxShare)],
            [t.days, String(current.rule.minLoanDays)],
            [
              t.setBy,
              current.proposedBy
                ? `${current.proposedBy.email} · ${current.decidedBy?.email ?? ''}`
                : t.platform,
            ],
          ]}
        />
      ) : null}
      <Proposals
        words={t}
        testId="loan-limit"
        columns={ruleColumns(t)}
        pending={data ? (data.pending ? [data.pending] : []) : undefined}
        recent={data?.recent}
        loading={loading}
        failure={failure}
        onRetry={onRetry}
        decide={
          mayPropose
            ? (id, decision) =>
                decision === 'approve'
                  ? callAdmin('approveLoanLimitRule', { params: { id } })
                  : callAdmin('rejectLoanLimitRule', { params: { id } })
            : null
        }
        invalidate={keys.loans}
        onDone={setDone}
      >
        {current && mayPropose && data?.pending === null ? (
          <ProposeForm t={t} current={current.rule} onDone={setDone} />
        ) : null}
      </Proposals>
    </Screen>
  );
}
