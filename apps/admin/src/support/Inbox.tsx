import {
  LANGUAGE_TAGS,
  type Language,
  SUPPORT_LIMITS,
  SUPPORT_VIEWS,
  type SupportInboxItem,
  type SupportMessage,
} from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Alert } from '../Field.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill, formatTime } from '../text.ts';
import { AttachInput, AttachmentView } from './Attachment.tsx';
import { SUPPORT_TEXT, type SupportText } from './support.text.ts';
import { useAgentSocket } from './useAgentSocket.ts';
import '../../../web/src/styles/chat.css';
import './support.css';

type View = (typeof SUPPORT_VIEWS)[number];
type Socket = ReturnType<typeof useAgentSocket>;
const isView = (value: string | null): value is View =>
  (SUPPORT_VIEWS as readonly string[]).includes(value ?? '');

/** Who wrote to us: the customer's name, or a visitor's e-mail address. */
const whoOf = (t: SupportText, item: SupportInboxItem) =>
  item.customer?.userName ?? (item.email ? `${t.visitor} · ${item.email}` : t.visitor);

function ViewFilter({ t, view }: { t: SupportText; view: View }) {
  const [, setParams] = useSearchParams();
  return (
    <nav aria-label={t.list} className="actions">
      {SUPPORT_VIEWS.map((v) => (
        <button
          key={v}
          type="button"
          className={v === view ? 'primary' : undefined}
          aria-pressed={v === view}
          onClick={() => setParams(v === 'mine' ? {} : { view: v })}
        >
          {t.views[v]}
        </button>
      ))}
    </nav>
  );
}

function Agents({ t }: { t: SupportText }) {
  const { language } = useBackOffice();
  const agents = useQuery({
    queryKey: keys.supportAgents(language),
    queryFn: () => callAdmin('supportAgents'),
  });
  return (
    <p className="hint support-agents">
      {t.agents}:{' '}
      {(agents.data ?? [])
        .map(
          (a) =>
            `${a.email} (${a.online ? t.online : t.offline}, ${fill(t.load, { open: a.open, limit: a.limit })})`,
        )
        .join(' · ') || t.none}
    </p>
  );
}

function ConversationList({ t, view, selected }: { t: SupportText; view: View; selected: number | null }) {
  const { language } = useBackOffice();
  const [params] = useSearchParams();
  const list = useQuery({
    queryKey: keys.supportInbox(language, view),
    queryFn: () => callAdmin('supportInbox', { query: { view } }),
  });
  const rows = list.data ?? [];
  if (list.isPending) return <p className="hint">…</p>;
  if (rows.length === 0) return <p className="hint">{t.empty}</p>;
  return (
    <ul className="support-list" aria-label={t.list}>
      {rows.map((item) => (
        <li key={item.id}>
          <Link
            to={{ pathname: `/support/${item.id}`, search: params.toString() }}
            aria-current={item.id === selected ? 'true' : undefined}
            className="support-item"
          >
            <span className="support-who">{whoOf(t, item)}</span>
            <span className="hint">
              {t.states[item.state]}
              {item.queuePlace !== null ? ` · ${fill(t.queue, { place: item.queuePlace })}` : ''}
              {item.unread > 0 ? ` · ${fill(t.unread, { count: item.unread })}` : ''}
            </span>
            <span className="support-last">{item.lastMessage ?? ''}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** One line of the transcript, its text as text; notes marked, system lines in words. */
function Line({ t, m, item }: { t: SupportText; m: SupportMessage; item: SupportInboxItem }) {
  const { language } = useBackOffice();
  if (m.author === 'system') {
    const words = m.event ? t.system[m.event] : '';
    return <li className="line line-system">{fill(words, { name: m.agentName ?? '', rating: m.body })}</li>;
  }
  const mark =
    m.author === 'agent' && !m.private
      ? m.id <= item.seen.read
        ? t.marks.read
        : m.id <= item.seen.delivered
          ? t.marks.delivered
          : t.marks.sent
      : null;
  return (
    <li
      className={`line line-${m.author}${m.author === 'agent' ? ' line-own' : ''}${m.private ? ' line-note' : ''}`}
    >
      <p className="hint">
        {m.author === 'customer' ? whoOf(t, item) : (m.agentName ?? '')}
        {m.private ? ` · ${t.noteBadge}` : ''} · {formatTime(language, m.at)}
      </p>
      <p className="body" dir="auto">
        {m.body}
      </p>
      {m.attachment ? <AttachmentView t={t} id={m.attachment} /> : null}
      {mark ? <p className="hint mark">{mark}</p> : null}
    </li>
  );
}

function useConversation(id: number) {
  const { language } = useBackOffice();
  return useQuery({
    queryKey: keys.supportConversation(language, id),
    queryFn: () => callAdmin('supportConversation', { params: { id } }),
  });
}

/** Reads: tells the customer how far this agent has read, when new lines arrive. */
function useReadReceipt(socket: Socket, id: number, messages: SupportMessage[] | undefined) {
  const last = messages?.filter((m) => m.author === 'customer').at(-1)?.id;
  useEffect(() => {
    if (last !== undefined && socket.connected)
      socket.send({ t: 'read', conversationId: id, messageId: last });
  }, [socket, id, last]);
}

function Actions({ t, item }: { t: SupportText; item: SupportInboxItem }) {
  const { text, language, staff } = useBackOffice();
  const client = useQueryClient();
  const agents = useQuery({
    queryKey: keys.supportAgents(language),
    queryFn: () => callAdmin('supportAgents'),
  });
  const [target, setTarget] = useState('');
  const selectId = useId();
  const done = () => client.invalidateQueries({ queryKey: keys.support });
  const act = useMutation({
    mutationFn: (what: 'resolve' | 'reopen' | 'transfer') =>
      what === 'transfer'
        ? callAdmin('transferSupportConversation', {
            params: { id: item.id },
            body: { staffId: Number(target) },
          })
        : callAdmin(what === 'resolve' ? 'resolveSupportConversation' : 'reopenSupportConversation', {
            params: { id: item.id },
          }),
    onSuccess: done,
  });
  const others = (agents.data ?? []).filter((a) => a.id !== staff?.id);
  return (
    <div className="support-actions">
      {item.state === 'open' ? (
        <div className="actions">
          <label htmlFor={selectId}>{t.transferTo}</label>
          <select id={selectId} value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">{t.none}</option>
            {others.map((a) => (
              <option key={a.id} value={a.id}>
                {a.email} ({a.online ? t.online : t.offline})
              </option>
            ))}
          </select>
          <button type="button" disabled={!target || act.isPending} onClick={() => act.mutate('transfer')}>
            {t.transfer}
          </button>
          <button
            type="button"
            className="primary"
            disabled={act.isPending}
            onClick={() => act.mutate('resolve')}
          >
            {t.resolve}
          </button>
        </div>
      ) : null}
      {item.state === 'resolved' ? (
        <button type="button" disabled={act.isPending} onClick={() => act.mutate('reopen')}>
          {t.reopen}
        </button>
      ) : null}
      <Alert message={act.isError ? failureMessage(act.error, text.error.generic) : ''} />
    </div>
  );
}

/** The canned replies in the conversation's language; choosing one adds its text to the reply. */
function CannedPicker({
  t,
  id,
  language,
  onPick,
}: {
  t: SupportText;
  id: string;
  language: Language;
  onPick: (text: string) => void;
}) {
  const staffLanguage = useBackOffice().language;
  const canned = useQuery({
    queryKey: keys.supportCanned(language),
    queryFn: () => callAdmin('supportCannedReplies', { query: { language } }),
  });
  return (
    <>
      <label htmlFor={id}>{t.canned}</label>
      <select
        id={id}
        value=""
        onChange={(e) => onPick(e.target.value)}
        lang={language === staffLanguage ? undefined : LANGUAGE_TAGS[language]}
      >
        <option value="">{t.cannedNone}</option>
        {(canned.data ?? []).map((c) => (
          <option key={c.id} value={c.body}>
            {c.title}
          </option>
        ))}
      </select>
    </>
  );
}

/** The reply being written: its text, note or not, its attachment, and sending it over the socket. */
function useReply(item: SupportInboxItem, socket: Socket) {
  const [body, setBody] = useState('');
  const [note, setNote] = useState(false);
  const [attachment, setAttachment] = useState<string | null>(null);
  const submit = () => {
    const text = body.trim();
    if (!text) return;
    const sent = socket.send({
      t: 'send',
      conversationId: item.id,
      clientId: crypto.randomUUID(),
      body: text,
      private: note,
      ...(attachment ? { attachment } : {}),
    });
    if (sent) {
      setBody('');
      setAttachment(null);
    }
  };
  return { body, setBody, note, setNote, attachment, setAttachment, submit };
}

function Composer({ t, item, socket }: { t: SupportText; item: SupportInboxItem; socket: Socket }) {
  const { body, setBody, note, setNote, attachment, setAttachment, submit } = useReply(item, socket);
  const ids = { reply: useId(), canned: useId(), note: useId() };
  const [lastTyping, setLastTyping] = useState(0);
  return (
    <form
      className="support-composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <CannedPicker
        t={t}
        id={ids.canned}
        language={item.language}
        onPick={(text) => setBody((now) => `${now}${now ? ' ' : ''}${text}`)}
      />
      <label htmlFor={ids.reply}>{note ? t.note : t.reply}</label>
      <textarea
        id={ids.reply}
        rows={3}
        maxLength={SUPPORT_LIMITS.messageChars}
        value={body}
        onChange={(e) => {
          setBody(e.target.value);
          if (Date.now() - lastTyping > 1500 && !note) {
            setLastTyping(Date.now());
            socket.send({ t: 'typing', conversationId: item.id });
          }
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <AttachInput
        t={t}
        attached={attachment}
        onChange={(id, name) => {
          setAttachment(id);
          // With no words yet, the file's name is the message.
          if (id) setBody((now) => now || name.slice(0, 200));
        }}
      />
      <div className="actions">
        <label htmlFor={ids.note} className="support-note-toggle">
          <input id={ids.note} type="checkbox" checked={note} onChange={(e) => setNote(e.target.checked)} />{' '}
          {t.noteBadge}
        </label>
        <button type="submit" className="primary" disabled={!socket.connected}>
          {t.send}
        </button>
      </div>
    </form>
  );
}

function ConversationPane({ t, id, socket }: { t: SupportText; id: number; socket: Socket }) {
  const { text } = useBackOffice();
  const detail = useConversation(id);
  useReadReceipt(socket, id, detail.data?.messages);
  if (detail.isError) return <Alert message={failureMessage(detail.error, text.error.generic)} />;
  if (!detail.data) return <p className="hint">…</p>;
  const { item, messages } = detail.data;
  return (
    <section className="support-pane" aria-labelledby={`support-${id}`}>
      <h3 id={`support-${id}`}>
        {whoOf(t, item)} · {t.states[item.state]}
      </h3>
      <p className="hint">
        {item.agent ? item.agent.email : t.none}
        {item.byMail ? ` · ${t.byMail}` : ''}
        {item.rating !== null ? ` · ${fill(t.rating, { rating: item.rating })}` : ''}
      </p>
      <div
        className="support-log chat-log"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label={t.transcript}
      >
        <ol className="chat-lines">
          {messages.map((m) => (
            <Line key={m.id} t={t} m={m} item={item} />
          ))}
        </ol>
      </div>
      {socket.typing.has(id) ? <p className="hint">{t.typing}</p> : null}
      <Alert message={socket.lastError ? t.error : ''} />
      {item.state !== 'resolved' ? <Composer t={t} item={item} socket={socket} /> : null}
      <Actions t={t} item={item} />
    </section>
  );
}

/**
 * The support inbox (/admin/support): conversations by view (mine, waiting, open, resolved), the
 * agents and their load, and the chosen conversation with its transcript, reply, private note,
 * canned replies, transfer, resolve and reopen. While it is open, its agent is online.
 */
export function Inbox() {
  const { language } = useBackOffice();
  const t = SUPPORT_TEXT[language];
  const [params] = useSearchParams();
  const view: View = isView(params.get('view')) ? (params.get('view') as View) : 'mine';
  const id = Number(useParams().id ?? 0) || null;
  const socket = useAgentSocket();
  return (
    <Screen heading={t.heading}>
      <p className="hint">{t.intro}</p>
      <p className="hint" role="status">
        {socket.connected ? t.connected : t.connecting}
      </p>
      <Agents t={t} />
      <ViewFilter t={t} view={view} />
      <div className="support-grid">
        <ConversationList t={t} view={view} selected={id} />
        {id ? <ConversationPane t={t} id={id} socket={socket} /> : <p className="hint">{t.choose}</p>}
      </div>
    </Screen>
  );
}
