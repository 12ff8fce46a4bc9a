import type { QueryKey, UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode, useId, useState } from 'react';
import { failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable } from './DataTable.tsx';
import { SubmitRow } from './Field.tsx';
import { type Draft, type FieldSpec, KitField, KitParts, type Schema } from './KitFields.tsx';
import { issuesOf, type Problems, useDraftForm } from './useDraftForm.ts';
import './kit.css';

/** The words of a settings table. */
export type SettingsTexts = {
  heading: string;
  intro: string;
  readOnly: string;
  empty: string;
  edit: string;
};

/** The column of edit buttons, each named for screen readers by the row it edits. */
function editColumnOf<Row>(
  edit: string,
  label: (row: Row) => string,
  onEdit: (row: Row) => void,
): Column<Row> {
  return {
    key: 'edit',
    header: edit,
    hiddenHeader: true,
    cell: (row) => (
      <button type="button" aria-label={label(row)} onClick={() => onEdit(row)}>
        {edit}
      </button>
    ),
  };
}

/**
 * One editable settings table (swap pairs, networks): the heading, the intro (and that it is read
 * only, for whom may not edit), what the last change did, the rows with an edit button each for
 * whom may edit (`editLabel` names it for screen readers), then the form of the row being edited
 * (`form`, told when it is done and what to say).
 */
export function SettingsTable<Row>({
  t,
  mayEdit,
  query,
  columns,
  rowKey,
  filterText,
  testId,
  editLabel,
  form,
}: {
  t: SettingsTexts;
  mayEdit: boolean;
  query: UseQueryResult<Row[]>;
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  filterText: (row: Row) => string;
  testId: string;
  editLabel: (row: Row) => string;
  form: (row: Row, onDone: (message: string) => void) => ReactNode;
}) {
  const { text } = useBackOffice();
  const headingId = useId();
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const editColumn = editColumnOf(t.edit, editLabel, (row: Row) => {
    setDone('');
    setEditing(rowKey(row));
  });
  const row = query.data?.find((r) => rowKey(r) === editing);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {t.heading}
      </h2>
      <p className="muted">{t.intro}</p>
      {mayEdit ? null : <p className="muted">{t.readOnly}</p>}
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      <DataTable
        caption={t.heading}
        columns={mayEdit ? [...columns, editColumn] : columns}
        rows={query.data}
        rowKey={rowKey}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={t.empty}
        filterText={filterText}
        testId={testId}
      />
      {row !== undefined && mayEdit ? (
        // Keyed: another row edited is a fresh form.
        <Fragment key={editing}>
          {form(row, (message) => {
            setEditing(null);
            setDone(message);
          })}
        </Fragment>
      ) : null}
    </section>
  );
}

/** What a settings form is given (see SettingsForm). */
export type SettingsFormProps<D extends Draft, Body, Saved> = {
  testId?: string;
  heading: string;
  intro?: string;
  fields: FieldSpec<D>[];
  toggle: FieldSpec<D>;
  texts: { save: string; cancel: string; checkValue: string };
  initial: () => D;
  body: (draft: D) => unknown;
  schema: Schema<Body>;
  fieldOf?: (name: string) => string;
  save: (body: Body) => Promise<Saved>;
  invalidate: QueryKey;
  /** What to say once saved. */
  saved: (saved: Saved) => string;
  onDone: (message: string) => void;
};

/** The form's draft: checked by the schema, saved, its fields marked by the server's issues too. */
function useSettingsForm<D extends Draft, Body, Saved>(props: SettingsFormProps<D, Body, Saved>) {
  const { body, schema, fieldOf = (name: string) => name } = props;
  const marked = (names: string[]): Problems<'checkValue'> =>
    new Map(names.map((name) => [fieldOf(name), 'checkValue'] as const));
  return useDraftForm({
    initial: props.initial,
    check: (d: D) => {
      const checked = schema.safeParse(body(d));
      return checked.success
        ? { body: checked.data, problems: marked([]) }
        : {
            body: undefined as Body,
            problems: marked(checked.error.issues.map((i) => String(i.path[0] ?? ''))),
          };
    },
    save: props.save,
    invalidate: props.invalidate,
    onSaved: (answer: Saved) => props.onDone(props.saved(answer)),
    fromServer: (data) => marked(issuesOf(data).map((i) => i.name)),
  });
}

/**
 * The form of one row of a settings table: its heading and intro, its fields (a grid, from a
 * declarative list), its switch, then save and cancel. The draft checks by the contract's schema
 * (`body` makes what it checks; an issue's path names its field through `fieldOf`); what the
 * schema gives back is sent; the server's field issues mark the fields too.
 */
export function SettingsForm<D extends Draft, Body, Saved>(props: SettingsFormProps<D, Body, Saved>) {
  const { testId, heading, intro, fields, toggle, texts, onDone } = props;
  const { text } = useBackOffice();
  const headingId = useId();
  const form = useSettingsForm(props);
  const at = {
    draft: form.draft,
    setDraft: form.setDraft,
    error: (name: string) => (form.problems.has(name) ? texts.checkValue : undefined),
  };
  return (
    <form
      className="panel kit-settings-form"
      aria-labelledby={headingId}
      onSubmit={form.submit}
      noValidate
      data-testid={testId}
    >
      <h3 id={headingId}>{heading}</h3>
      {intro ? <p className="muted">{intro}</p> : null}
      <KitParts parts={[{ row: fields }]} at={at} />
      <KitField field={toggle} at={at} />
      <SubmitRow
        failure={form.save.isError ? failureMessage(form.save.error, text.error.generic) : ''}
        busy={form.save.isPending}
        label={texts.save}
      >
        <button type="button" onClick={() => onDone('')}>
          {texts.cancel}
        </button>
      </SubmitRow>
    </form>
  );
}
