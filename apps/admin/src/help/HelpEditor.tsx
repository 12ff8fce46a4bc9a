import {
  adminCalls,
  type HelpArticle,
  type HelpRevision,
  isRtl,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
  markupToLines,
} from '@swx/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { allowed, callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, textColumn, timeColumn } from '../DataTable.tsx';
import { Done, Pending, SubmitRow } from '../Field.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { categoryName } from './HelpList.tsx';
import { BackToList, TextFields, useFailure } from './HelpNew.tsx';
import { type HelpText, useHelpText } from './help.text.ts';
import { Markup } from './Markup.tsx';
import './help.css';

type State = 'draft' | 'published' | 'missing';

/** A language's text to edit: its draft if there is one, else its published text, else nothing. */
function textOf(article: HelpArticle, language: Language) {
  const texts = article.texts.filter((text) => text.language === language);
  return texts.find((text) => text.state === 'draft') ?? texts.find((text) => text.state === 'published');
}

function stateOf(article: HelpArticle, language: Language): State {
  return textOf(article, language)?.state ?? 'missing';
}

/** The ten languages, each with the state of its text; the one chosen is edited below. */
function Languages({
  article,
  chosen,
  onChoose,
}: {
  article: HelpArticle;
  chosen: Language;
  onChoose: (language: Language) => void;
}) {
  const t = useHelpText();
  const words: Record<State, string> = {
    draft: t.stateDraft,
    published: t.statePublished,
    missing: t.stateMissing,
  };
  const missing = LANGUAGES.filter((language) => stateOf(article, language) === 'missing');
  return (
    <section aria-labelledby="help-languages">
      <h3 id="help-languages">{t.language}</h3>
      <ul className="help-languages">
        {LANGUAGES.map((language) => (
          <li key={language}>
            <button
              type="button"
              aria-pressed={language === chosen}
              data-state={stateOf(article, language)}
              onClick={() => onChoose(language)}
            >
              {LANGUAGE_NAMES[language]} <span className="muted">({words[stateOf(article, language)]})</span>
            </button>
          </li>
        ))}
      </ul>
      <p className="muted" data-testid="help-missing">
        {missing.length > 0
          ? fill(t.missing, { languages: missing.map((language) => LANGUAGE_NAMES[language]).join(', ') })
          : t.noneMissing}
      </p>
    </section>
  );
}

/** The value once it has stopped changing for a while (the preview asks the server at most then). */
function useSettled<T>(value: T, ms = 400): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A page's text as customers will read it: the server fills in the operator's settings and leaves
 * out what is not set. An article's text is shown as it is.
 */
function useShownText(type: number, language: Language, body: string): string {
  const settled = useSettled(body);
  const page = type <= 3 && settled.trim() !== '';
  const rendered = useQuery({
    queryKey: ['help', 'preview', type, language, settled],
    queryFn: () =>
      callAdmin('previewContentText', { body: { type, language, lines: markupToLines(settled) } }),
    enabled: page,
    placeholderData: keepPreviousData,
  });
  return page ? (rendered.data?.body ?? '') : body;
}

/** The text as customers will see it, at the desktop layout's width or a phone's. */
function Preview({
  type,
  title,
  body: typed,
  language,
}: {
  type: number;
  title: string;
  body: string;
  language: Language;
}) {
  const t = useHelpText();
  const [width, setWidth] = useState<'desktop' | 'phone'>('desktop');
  const body = useShownText(type, language, typed);
  return (
    <section aria-labelledby="help-preview" className="help-preview-area">
      <h3 id="help-preview">{t.preview}</h3>
      <div className="actions">
        {(['desktop', 'phone'] as const).map((w) => (
          <button key={w} type="button" aria-pressed={width === w} onClick={() => setWidth(w)}>
            {w === 'desktop' ? t.desktop : t.phone}
          </button>
        ))}
      </div>
      <div className="help-preview" data-width={width} data-testid="help-preview">
        {body.trim() ? (
          <article lang={language} dir={isRtl(language) ? 'rtl' : 'ltr'}>
            <h1>{title}</h1>
            <Markup text={body} />
          </article>
        ) : (
          <p className="muted">{t.previewEmpty}</p>
        )}
      </div>
    </section>
  );
}

function revisionColumns(t: HelpText, language: Language): Column<HelpRevision>[] {
  return [
    textColumn('what', t.revisionWhat, (row) =>
      [t.actions[row.action], row.language ? LANGUAGE_NAMES[row.language as Language] : '', row.title ?? '']
        .filter(Boolean)
        .join(' · '),
    ),
    textColumn('who', t.revisionWho, (row) => row.staff),
    timeColumn('when', t.revisionWhen, language, (row) => row.at),
  ];
}

/** One language's draft: title and text, saved as a draft (checked by the server), previewed as typed. */
function DraftForm({
  article,
  language,
  canEdit,
}: {
  article: HelpArticle;
  language: Language;
  canEdit: boolean;
}) {
  const t = useHelpText();
  const queryClient = useQueryClient();
  const current = textOf(article, language);
  const [title, setTitle] = useState(current?.title ?? '');
  const [body, setBody] = useState(current?.body ?? '');
  const save = useMutation({
    mutationFn: () =>
      callAdmin('saveHelpDraft', {
        params: { id: article.id },
        body: { language, title, lines: markupToLines(body) },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.help }),
  });
  const failure = useFailure(save.error);
  return (
    <div className="help-edit">
      <form
        className="stack help-form"
        lang={language}
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <fieldset disabled={!canEdit}>
          <legend>{LANGUAGE_NAMES[language]}</legend>
          <TextFields
            title={title}
            body={body}
            language={language}
            onTitle={setTitle}
            onBody={setBody}
            page={article.type <= 3}
          />
          {canEdit ? <SubmitRow failure={failure} busy={save.isPending} label={t.saveDraft} /> : null}
          <Done message={save.isSuccess ? t.saved : ''} />
        </fieldset>
      </form>
      <Preview type={article.type} title={title} body={body} language={language} />
    </div>
  );
}

/** Publish (every draft; English needed) or unpublish, for the roles that edit. */
function PublishBar({ article }: { article: HelpArticle }) {
  const t = useHelpText();
  const queryClient = useQueryClient();
  const [done, setDone] = useState('');
  const change = useMutation({
    mutationFn: (publish: boolean) =>
      callAdmin(publish ? 'publishHelpArticle' : 'unpublishHelpArticle', { params: { id: article.id } }),
    onSuccess: (_saved, publish) => setDone(publish ? t.publishedDone : t.unpublishedDone),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.help }),
  });
  const failure = useFailure(change.error);
  return (
    <form
      className="help-publish"
      onSubmit={(event) => {
        event.preventDefault();
        change.mutate(true);
      }}
    >
      <SubmitRow failure={failure} busy={change.isPending} label={t.publish}>
        {article.published ? (
          <button
            type="button"
            className="danger"
            disabled={change.isPending}
            onClick={() => change.mutate(false)}
          >
            {t.unpublish}
          </button>
        ) : null}
      </SubmitRow>
      <Done message={done} />
    </form>
  );
}

/** One article: its state, its languages, the chosen language's draft with its preview, its revisions. */
export function HelpEditor() {
  const t = useHelpText();
  const { language, staff, text } = useBackOffice();
  const id = Number(useParams().id);
  const [chosen, setChosen] = useState<Language>('en');
  const article = useQuery({
    queryKey: keys.helpArticle(language, id),
    queryFn: () => callAdmin('getHelpArticle', { params: { id } }),
    enabled: Number.isInteger(id) && id > 0,
  });
  const canEdit = allowed(staff, adminCalls.saveHelpDraft);
  const data = article.data;
  return (
    <Screen heading={data ? data.title : t.heading}>
      <BackToList type={data?.type} />
      {!data ? (
        <Pending
          failure={article.isError ? failureMessage(article.error, text.error.generic) : ''}
          loading={t.loading}
        />
      ) : (
        <>
          <p className="help-status" data-testid="help-status">
            {data.type === 5 ? t.faq : data.type === 6 ? t.notices : t.pages} ·{' '}
            {categoryName(t, data.type, data.category)} ·{' '}
            <strong>{data.published ? t.published : t.unpublished}</strong>
          </p>
          {canEdit ? <PublishBar article={data} /> : <p className="muted">{t.readOnly}</p>}
          <Languages article={data} chosen={chosen} onChoose={setChosen} />
          <DraftForm key={chosen} article={data} language={chosen} canEdit={canEdit} />
          <DataTable
            caption={t.revisions}
            columns={revisionColumns(t, language)}
            rows={data.revisions}
            rowKey={(row) => row.id}
            loading={false}
            failure=""
            empty={t.noRevisions}
            testId="help-revisions"
          />
        </>
      )}
    </Screen>
  );
}
