import type { ProposalState } from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, timeColumn } from '../DataTable.tsx';
import { Alert } from '../Field.tsx';

/** A proposal of a setting changed under four eyes, as the contract's `settingProposal` states it. */
export type Proposal = {
  id: number;
  state: ProposalState;
  /** Null: the setting's first value, the platform's. */
  proposedBy: { id: number; email: string } | null;
  proposedAt: string;
  decidedBy: { id: number; email: string } | null;
};

/** What the proposals' tables and buttons say: each screen's own words (its locales). */
export type ProposalWords = {
  pendingHeading: string;
  pendingEmpty: string;
  recentHeading: string;
  recentEmpty: string;
  proposedBy: string;
  proposedAt: string;
  actions: string;
  approve: string;
  reject: string;
  withdraw: string;
  yours: string;
  approved: string;
  rejected: string;
  state: string;
  states: Record<ProposalState, string>;
  decidedBy: string;
  /** Who proposed the setting's first value, where a setting has one. */
  platform?: string;
};

export type Decision = 'approve' | 'reject';

/** A waiting proposal's buttons: another staff member approves or rejects it, its proposer withdraws it. */
function DecideButtons({
  proposal: p,
  words: w,
  busy,
  onDecide,
}: {
  proposal: Proposal;
  words: ProposalWords;
  busy: boolean;
  onDecide: (id: number, decision: Decision) => void;
}) {
  const { staff } = useBackOffice();
  const mine = p.proposedBy !== null && p.proposedBy.id === staff?.id;
  return (
    <span className="actions">
      {mine ? (
        <span className="muted">{w.yours}</span>
      ) : (
        <button type="button" className="primary" disabled={busy} onClick={() => onDecide(p.id, 'approve')}>
          {w.approve}
        </button>
      )}
      <button type="button" disabled={busy} onClick={() => onDecide(p.id, 'reject')}>
        {mine ? w.withdraw : w.reject}
      </button>
    </span>
  );
}

type ProposalsProps<P extends Proposal> = {
  words: ProposalWords;
  /** The tables' test ids: `<testId>-pending`, `<testId>-recent`. */
  testId: string;
  columns: Column<P>[];
  pending: P[] | undefined;
  recent: P[] | undefined;
  loading: boolean;
  failure: string;
  onRetry: () => void;
  decide: ((id: number, decision: Decision) => Promise<{ state: ProposalState }>) | null;
  /** The query a decision changes. */
  invalidate: readonly unknown[];
  /** What the screen says once a proposal is decided. */
  onDone: (message: string) => void;
  children?: ReactNode;
};

/**
 * The proposals of a setting changed under four eyes (the four-eyes thresholds, the loan limit
 * rule): the changes waiting for a second staff member, with their buttons (approve; turn down, or
 * withdraw one's own; "yours" instead of approve for the proposer), then the screen's own parts
 * (`children`: its form, its values), then the latest decided. `columns` are the setting's own
 * (what changes); who proposed, when, and how it ended are the same for every setting. `decide`
 * null: the staff member may only read them.
 */
export function Proposals<P extends Proposal>({
  words: w,
  testId,
  columns,
  pending,
  recent,
  loading,
  failure,
  onRetry,
  decide,
  invalidate,
  onDone,
  children,
}: ProposalsProps<P>) {
  const { text, language } = useBackOffice();
  const decision = useDecision(decide, invalidate, (state) =>
    onDone(state === 'approved' ? w.approved : w.rejected),
  );
  const common: Column<P>[] = [
    ...columns,
    { key: 'proposedBy', header: w.proposedBy, cell: (p) => p.proposedBy?.email ?? w.platform ?? '' },
    timeColumn('proposedAt', w.proposedAt, language, (p) => p.proposedAt),
  ];
  const actions: Column<P>[] = decide
    ? [
        {
          key: 'actions',
          header: w.actions,
          hiddenHeader: true,
          cell: (p) => (
            <DecideButtons
              proposal={p}
              words={w}
              busy={decision.isPending}
              onDecide={(id, d) => decision.mutate({ id, decision: d })}
            />
          ),
        },
      ]
    : [];
  const ended: Column<P>[] = [
    { key: 'state', header: w.state, cell: (p) => w.states[p.state] },
    { key: 'decidedBy', header: w.decidedBy, cell: (p) => p.decidedBy?.email ?? '' },
  ];
  return (
    <>
      <Alert message={decision.isError ? failureMessage(decision.error, text.error.generic) : ''} />
      <ProposalTable
        testId={`${testId}-pending`}
        rows={pending}
        columns={[...common, ...actions]}
        heading={w.pendingHeading}
        empty={w.pendingEmpty}
        state={{ loading, failure, onRetry }}
      />
      {children}
      <ProposalTable
        testId={`${testId}-recent`}
        rows={recent}
        columns={[...common, ...ended]}
        heading={w.recentHeading}
        empty={w.recentEmpty}
        state={{ loading, failure }}
      />
    </>
  );
}

/** The waiting or the decided proposals, under their heading. */
function ProposalTable<P extends Proposal>({
  testId,
  rows,
  columns,
  heading,
  empty,
  state,
}: {
  testId: string;
  rows: P[] | undefined;
  columns: Column<P>[];
  heading: string;
  empty: string;
  state: { loading: boolean; failure: string; onRetry?: () => void };
}) {
  return (
    <>
      <h3>{heading}</h3>
      <DataTable
        caption={heading}
        testId={testId}
        columns={columns}
        rows={rows}
        rowKey={(p) => p.id}
        loading={state.loading}
        failure={state.failure}
        onRetry={state.onRetry}
        empty={empty}
      />
    </>
  );
}

/** A decision on a proposal: sent, then the screen's query refreshed and what happened said. */
function useDecision(
  decide: ProposalsProps<Proposal>['decide'],
  invalidate: readonly unknown[],
  done: (state: ProposalState) => void,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision: d }: { id: number; decision: Decision }) => {
      if (!decide) throw new Error('read only');
      return decide(id, d);
    },
    onSuccess: async (decided) => {
      await client.invalidateQueries({ queryKey: invalidate });
      done(decided.state);
    },
  });
}
