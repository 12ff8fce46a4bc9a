import { SUPPORT_LIMITS, type SupportAgent } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { DataTable, textColumn, useQueryState } from '../DataTable.tsx';
import { Alert, Done, FieldError } from '../Field.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill, formatTime } from '../text.ts';
import { SUPPORT_TEXT, type SupportText } from './support.text.ts';
import './support.css';

const { min, max } = SUPPORT_LIMITS.agentLimitRange;

/** One agent's limit: a number field (labelled with the agent) and its own save button. */
function LimitForm({ t, agent }: { t: SupportText; agent: SupportAgent }) {
  const { text, language } = useBackOffice();
  const client = useQueryClient();
  const [value, setValue] = useState(String(agent.limit));
  const [invalid, setInvalid] = useState(false);
  const inputId = useId();
  const save = useMutation({
    mutationFn: (limit: number) =>
      callAdmin('setSupportAgentLimit', { params: { id: agent.id }, body: { limit } }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.supportAgents(language) }),
  });
  return (
    <form
      className="support-limit"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const limit = Number(value);
        const ok = Number.isInteger(limit) && limit >= min && limit <= max;
        setInvalid(!ok);
        if (ok) save.mutate(limit);
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {fill(t.limits.field, { email: agent.email })}
      </label>
      <input
        id={inputId}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${inputId}-error` : undefined}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" disabled={save.isPending}>
        {t.limits.save}
      </button>
      <FieldError id={inputId} error={invalid ? fill(t.limits.invalid, { min, max }) : undefined} />
      <Alert message={save.isError ? failureMessage(save.error, text.error.generic) : ''} />
      {save.isSuccess ? (
        <Done message={fill(t.limits.saved, { email: agent.email, limit: save.data.limit })} />
      ) : null}
    </form>
  );
}

/**
 * Agents' limits (/admin/support-agents, the supportLimits duty): how many conversations each
 * agent of the chat takes at once. Assignment follows the limit at once; each change is audited.
 */
export function AgentLimits() {
  const { language } = useBackOffice();
  const t = SUPPORT_TEXT[language];
  const agents = useQuery({
    queryKey: keys.supportAgents(language),
    queryFn: () => callAdmin('supportAgents'),
  });
  return (
    <Screen heading={t.limits.heading}>
      <p className="hint">{fill(t.limits.intro, { limit: SUPPORT_LIMITS.agentLimit, min, max })}</p>
      <DataTable<SupportAgent>
        caption={t.limits.caption}
        rows={agents.data}
        rowKey={(a) => a.id}
        {...useQueryState(agents)}
        empty={t.limits.empty}
        filterText={(a) => a.email}
        columns={[
          textColumn('email', t.limits.agent, (a) => a.email),
          textColumn('online', t.limits.presence, (a) => (a.online ? t.online : t.offline)),
          textColumn('open', t.limits.open, (a) => a.open),
          {
            key: 'set',
            header: t.limits.setBy,
            // Each part isolated, so an address and a date keep their order in Arabic too.
            cell: (a) =>
              a.limitSetBy && a.limitSetAt ? (
                <>
                  <bdi>{a.limitSetBy}</bdi> · <bdi>{formatTime(language, a.limitSetAt)}</bdi>
                </>
              ) : (
                t.limits.default
              ),
          },
          { key: 'limit', header: t.limits.limit, cell: (a) => <LimitForm t={t} agent={a} /> },
        ]}
      />
    </Screen>
  );
}
