import { HELP_CATEGORIES, LANGUAGE_NAMES, LANGUAGES, type Language, markupToLines } from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { callAdmin, failureMessage, StaffApiError } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Field, SelectField, SubmitRow } from '../Field.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { issuesOf } from '../useDraftForm.ts';
import { categoryName, useHelpType } from './HelpList.tsx';
import { issueText, useHelpText } from './help.text.ts';
import { ImageInsert } from './ImageInsert.tsx';
import './help.css';

/** The template syntax a page's hint shows, as typed (never translated). */
const PAGE_HINT_VALUES = {
  settings: '{company}, {country}, {address}, {regulator}, {licence}, {supportEmail}…',
  shown: '{?name}',
  hidden: '{?!name}',
};

/** The text of an article: its title and its markup, with the markup's rules beside it. */
export function TextFields({
  title,
  body,
  onTitle,
  onBody,
  language,
  page = false,
}: {
  title: string;
  body: string;
  onTitle: (title: string) => void;
  onBody: (body: string) => void;
  language: Language;
  /** A company or policy page: its text may name the operator's settings. */
  page?: boolean;
}) {
  const t = useHelpText();
  const id = useId();
  return (
    <>
      <Field
        label={t.title}
        name="title"
        lang={language}
        dir="auto"
        maxLength={200}
        required
        value={title}
        onChange={(event) => onTitle(event.target.value)}
      />
      <div className="field">
        <label htmlFor={id}>{t.body}</label>
        <textarea
          id={id}
          name="body"
          lang={language}
          dir="auto"
          rows={14}
          maxLength={20_000}
          required
          aria-describedby={`${id}-hint`}
          value={body}
          onChange={(event) => onBody(event.target.value)}
        />
        <p id={`${id}-hint`} className="hint">
          {t.bodyHint} {page ? fill(t.pageHint, PAGE_HINT_VALUES) : null}
        </p>
      </div>
      <ImageInsert onInsert={(markup) => onBody(body.trim() ? `${body.trimEnd()}\n\n${markup}` : markup)} />
    </>
  );
}

/** The failure of a call in the staff member's words: a refusal's issues, or the server's message. */
export function useFailure(error: unknown): string {
  const t = useHelpText();
  const { text } = useBackOffice();
  if (!error) return '';
  const issues =
    error instanceof StaffApiError && error.code === 10026 ? issueText(t, issuesOf(error.data)) : '';
  return issues || failureMessage(error, text.error.generic);
}

/** The link back to the list of the article's kind. */
export function BackToList({ type }: { type: number | undefined }) {
  const t = useHelpText();
  return (
    <p>
      <Link to={type === 6 ? '/help?type=6' : type !== undefined && type <= 3 ? '/help?type=pages' : '/help'}>
        {t.allArticles}
      </Link>
    </p>
  );
}

type NewDraft = { category: string; slug: string; language: Language; title: string; body: string };

/** The call's body of a new article: its text as lines (the API takes no line ends in a string). */
function createBody(type: 5 | 6, draft: NewDraft) {
  return {
    type,
    category: Number(draft.category),
    slug: draft.slug,
    language: draft.language,
    title: draft.title,
    lines: markupToLines(draft.body),
  };
}

/** A new article: its kind, topic, short name and first text (a draft, not yet published). */
export function HelpNew() {
  const t = useHelpText();
  const type = useHelpType();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({
    category: '1',
    slug: '',
    language: 'en' as Language,
    title: '',
    body: '',
  });
  const create = useMutation({
    mutationFn: () => callAdmin('createHelpArticle', { body: createBody(type, draft) }),
    onSuccess: async (article) => {
      await queryClient.invalidateQueries({ queryKey: keys.help });
      void navigate(`/help/${article.id}`);
    },
  });
  const failure = useFailure(create.error);
  return (
    <Screen heading={t.newHeading}>
      <BackToList type={type} />
      <form
        className="stack help-form"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <SelectField
          label={t.category}
          value={draft.category}
          onChange={(event) => setDraft({ ...draft, category: event.target.value })}
          options={HELP_CATEGORIES[type].map((_, index) => ({
            value: String(index + 1),
            label: categoryName(t, type, index + 1),
          }))}
        />
        <Field
          label={t.slug}
          hint={t.slugHint}
          name="slug"
          dir="ltr"
          pattern="[a-z0-9-]{1,64}"
          required
          value={draft.slug}
          onChange={(event) => setDraft({ ...draft, slug: event.target.value })}
        />
        <SelectField
          label={t.language}
          value={draft.language}
          onChange={(event) => setDraft({ ...draft, language: event.target.value as Language })}
          options={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
        />
        <TextFields
          title={draft.title}
          body={draft.body}
          language={draft.language}
          onTitle={(title) => setDraft({ ...draft, title })}
          onBody={(body) => setDraft({ ...draft, body })}
        />
        <SubmitRow failure={failure} busy={create.isPending} label={t.create} />
      </form>
    </Screen>
  );
}
