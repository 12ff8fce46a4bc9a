// The service chat page (spec §7): query `language` and `clientId`. A page of its own
// (service.html, a second entry of the build), on the app's design tokens. Every text of a
// message is set with textContent: what a customer or an agent writes is shown as text.
import '../styles/tokens.css';
import '../styles/chat.css';
import './service.css';
import { isLanguage, LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from '@swx/contract';
import {
  ApiCallError,
  attachmentUrl,
  ChatSocket,
  call,
  type SupportConversation,
  type SupportHistory,
  type SupportMessage,
  startVisitor,
  uploadAttachment,
  type Who,
  whoIsHere,
} from './chat.ts';
import { fill, SERVICE_TEXT, type ServiceText } from './texts.ts';

const LANGUAGE_KEY = 'support.language';
const query = new URLSearchParams(location.search);

/** The spec's rule for the query (zh for zh, hk, tw or mo, else en); a language chosen on the page wins. */
function pageLanguage(): Language {
  let chosen: string | null = null;
  try {
    chosen = sessionStorage.getItem(LANGUAGE_KEY);
  } catch {
    chosen = null;
  }
  if (isLanguage(chosen)) return chosen;
  return ['zh', 'hk', 'tw', 'mo'].includes((query.get('language') ?? '').toLowerCase()) ? 'zh' : 'en';
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const el = {
  status: byId<HTMLParagraphElement>('status'),
  visitor: byId<HTMLFormElement>('visitor'),
  visitorEmail: byId<HTMLInputElement>('visitor-email'),
  visitorError: byId<HTMLParagraphElement>('visitor-error'),
  chat: byId<HTMLElement>('chat'),
  log: byId<HTMLOListElement>('log'),
  logRegion: byId<HTMLDivElement>('log-region'),
  typing: byId<HTMLParagraphElement>('typing'),
  rate: byId<HTMLFormElement>('rate'),
  stars: byId<HTMLDivElement>('stars'),
  composer: byId<HTMLFormElement>('composer'),
  message: byId<HTMLTextAreaElement>('message'),
  attach: byId<HTMLLabelElement>('attach'),
  file: byId<HTMLInputElement>('file'),
  attached: byId<HTMLSpanElement>('attached'),
  error: byId<HTMLParagraphElement>('composer-error'),
  language: byId<HTMLSelectElement>('language'),
};

const state = {
  language: pageLanguage(),
  who: whoIsHere() as Who,
  conversation: null as SupportConversation | null,
  lines: new Map<number, { message: SupportMessage; item: HTMLLIElement }>(),
  agentsOnline: false,
  socket: null as ChatSocket | null,
  attachment: null as string | null,
  typingTimer: 0,
  lastTyping: 0,
};
let text: ServiceText = SERVICE_TEXT[state.language];

function applyLanguage(): void {
  text = SERVICE_TEXT[state.language];
  document.documentElement.lang = LANGUAGE_TAGS[state.language];
  document.documentElement.dir = state.language === 'ar' ? 'rtl' : 'ltr';
  document.title = `SWX · ${text.title}`;
  for (const element of document.querySelectorAll<HTMLElement>('[data-text]')) {
    const key = element.dataset.text as keyof ServiceText;
    if (Object.hasOwn(text, key)) element.textContent = text[key];
  }
  const clientId = query.get('clientId');
  const client = byId<HTMLParagraphElement>('client');
  if (clientId) {
    client.textContent = `${text.client}: ${clientId.slice(0, 64)}`;
    client.hidden = false;
  }
  renderStars();
  for (const { message, item } of state.lines.values()) fillLine(item, message);
  renderState();
}

function languagePicker(): void {
  for (const language of LANGUAGES) {
    const option = document.createElement('option');
    option.value = language;
    option.lang = LANGUAGE_TAGS[language];
    option.textContent = LANGUAGE_NAMES[language];
    el.language.append(option);
  }
  el.language.value = state.language;
  el.language.addEventListener('change', () => {
    if (!isLanguage(el.language.value)) return;
    state.language = el.language.value;
    try {
      sessionStorage.setItem(LANGUAGE_KEY, state.language);
    } catch {
      // Not kept: this visit only.
    }
    applyLanguage();
  });
}

function renderStars(): void {
  el.stars.replaceChildren(
    ...[1, 2, 3, 4, 5].map((n) => {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'radio';
      input.name = 'rating';
      input.value = String(n);
      label.append(input, ` ${n}`);
      return label;
    }),
  );
}

const time = (iso: string) =>
  new Intl.DateTimeFormat(LANGUAGE_TAGS[state.language], { hour: '2-digit', minute: '2-digit' }).format(
    new Date(iso),
  );

/** A line's words: who and when, the text as text, a picture, and for the customer's own lines how far they got. */
function fillLine(item: HTMLLIElement, m: SupportMessage): void {
  item.className = `line line-${m.author}${m.author === 'customer' ? ' line-own' : ''}`;
  if (m.author === 'system') {
    const values = { name: state.conversation?.agentName ?? text.agent, rating: m.body };
    const key = (
      {
        assigned: 'assigned',
        transferred: 'transferred',
        resolved: 'resolvedEvent',
        reopened: 'reopened',
        rated: 'ratedEvent',
      } as const
    )[m.event ?? 'reopened'];
    item.textContent = fill(
      text[key],
      m.event === 'assigned' ? { ...values, name: m.agentName ?? values.name } : values,
    );
    return;
  }
  const who = document.createElement('p');
  who.className = 'who';
  who.textContent = `${m.author === 'customer' ? text.you : (m.agentName ?? text.agent)} · ${time(m.at)}`;
  const body = document.createElement('p');
  body.className = 'body';
  // Each line in its own direction (a Latin line in the Arabic page, an Arabic one in English).
  body.dir = 'auto';
  body.textContent = m.body;
  item.replaceChildren(who, body);
  if (m.attachment) item.append(attachment(m.attachment));
  if (m.author === 'customer') {
    const seen = state.conversation?.seen ?? { delivered: 0, read: 0 };
    const mark = document.createElement('p');
    mark.className = 'mark';
    mark.textContent = m.id <= seen.read ? text.read : m.id <= seen.delivered ? text.delivered : text.sent;
    item.append(mark);
  }
}

/** A picture shown, a PDF offered as a download (never opened in this page). */
function attachment(id: string): HTMLElement {
  const holder = document.createElement('div');
  holder.className = 'attachment';
  attachmentUrl(state.who, id)
    .then(({ url, pdf }) => {
      if (pdf) {
        const link = document.createElement('a');
        link.href = url;
        link.download = `${id}.pdf`;
        link.textContent = text.document;
        holder.replaceChildren(link);
        return;
      }
      const image = document.createElement('img');
      image.alt = text.picture;
      image.className = 'picture';
      image.src = url;
      holder.replaceChildren(image);
    })
    .catch(() => undefined);
  return holder;
}

function addLine(m: SupportMessage): void {
  const known = state.lines.get(m.id);
  if (known) {
    fillLine(known.item, m);
    return;
  }
  const item = document.createElement('li');
  fillLine(item, m);
  state.lines.set(m.id, { message: m, item });
  el.log.append(item);
  el.logRegion.scrollTop = el.logRegion.scrollHeight;
}

function renderMarks(): void {
  for (const { message, item } of state.lines.values())
    if (message.author === 'customer') fillLine(item, message);
}

/** The line above the log: who is there, the queue, resolution; and the rating form. */
function renderState(): void {
  const c = state.conversation;
  let words = state.agentsOnline ? text.online : text.offline;
  if (c?.state === 'waiting' && c.queuePlace !== null)
    words = `${fill(text.queue, { place: c.queuePlace })} ${state.agentsOnline ? '' : text.offline}`.trim();
  if (c?.state === 'open' && c.agentName) words = fill(text.with, { name: c.agentName });
  if (c?.state === 'resolved')
    words = c.rating === null ? text.resolved : fill(text.rated, { rating: c.rating });
  el.status.textContent = words;
  el.rate.hidden = !(c?.state === 'resolved' && c.rating === null);
  if (c && el.log.childElementCount === 0) {
    const empty = document.createElement('li');
    empty.className = 'line line-empty';
    empty.textContent = text.empty;
    el.log.append(empty);
  }
}

function show(history: SupportHistory): void {
  state.conversation = history.conversation;
  el.log.querySelector('.line-empty')?.remove();
  for (const m of history.messages) addLine(m);
  renderMarks();
  renderState();
  acknowledge();
}

/** Tells the agents how far this page has received and, when it is in view, read their lines. */
function acknowledge(): void {
  const c = state.conversation;
  const last = [...state.lines.values()].filter((l) => l.message.author === 'agent').at(-1)?.message.id;
  if (!c || last === undefined) return;
  state.socket?.send({ t: 'delivered', conversationId: c.id, messageId: last });
  if (document.visibilityState === 'visible')
    state.socket?.send({ t: 'read', conversationId: c.id, messageId: last });
}

async function refresh(): Promise<void> {
  if (!state.conversation) return;
  show(
    await call<SupportHistory>(
      state.who,
      state.language,
      'GET',
      `/support/conversation/${state.conversation.id}`,
    ),
  );
}

function failure(code: number): string {
  if (code === 10034) return text.tooLarge;
  if (code === 10026) return text.fileRefused;
  return code === 10027 ? text.tooMany : text.error;
}

function connect(): void {
  const socket = new ChatSocket(state.who, {
    ready: (online) => {
      state.agentsOnline = online;
      renderState();
      void refresh().catch(() => undefined);
    },
    message: (m) => {
      if (m.conversationId !== state.conversation?.id) return;
      el.log.querySelector('.line-empty')?.remove();
      addLine(m);
      if (m.author === 'agent') {
        el.typing.hidden = true;
        acknowledge();
      }
    },
    typing: () => {
      el.typing.textContent = text.typing;
      el.typing.hidden = false;
      clearTimeout(state.typingTimer);
      state.typingTimer = window.setTimeout(() => {
        el.typing.hidden = true;
      }, 4000);
    },
    receipts: (_id, delivered, read) => {
      if (!state.conversation) return;
      state.conversation = { ...state.conversation, seen: { delivered, read } };
      renderMarks();
    },
    changed: () => void refresh().catch(() => undefined),
    presence: (online) => {
      state.agentsOnline = online;
      renderState();
    },
    failed: (code) => {
      el.error.textContent = failure(code);
    },
    closed: () => {
      el.status.textContent = text.reconnecting;
    },
  });
  state.socket = socket;
  socket.connect();
  if (state.conversation) socket.join(state.conversation.id);
}

async function begin(): Promise<void> {
  el.visitor.hidden = true;
  el.chat.hidden = false;
  try {
    const mine = await call<SupportHistory | null>(state.who, state.language, 'GET', '/support/mine');
    if (mine) show(mine);
  } catch (error) {
    if (error instanceof ApiCallError && error.code === 401) {
      askVisitor();
      return;
    }
    throw error;
  }
  connect();
  renderState();
}

function askVisitor(): void {
  try {
    localStorage.removeItem('support.visitor');
  } catch {
    // Nothing kept.
  }
  state.who = { token: null, visitor: null };
  el.chat.hidden = true;
  el.visitor.hidden = false;
}

async function send(): Promise<void> {
  const body = el.message.value.trim();
  if (!body) return;
  el.error.textContent = '';
  if (!state.conversation) {
    show(
      await call<SupportHistory>(state.who, state.language, 'POST', '/support/conversation', {
        language: state.language,
      }),
    );
    state.socket?.join((state.conversation as SupportConversation | null)?.id ?? 0);
  }
  const id = state.conversation?.id;
  if (id === undefined) return;
  const sent = state.socket?.send({
    t: 'send',
    conversationId: id,
    clientId: crypto.randomUUID(),
    body,
    ...(state.attachment ? { attachment: state.attachment } : {}),
  });
  if (!sent) {
    el.error.textContent = text.reconnecting;
    return;
  }
  el.message.value = '';
  state.attachment = null;
  el.attached.textContent = '';
  el.file.value = '';
}

/** The file chosen goes up at once (checked by the server); its id goes with the next message. */
function attachChosen(): void {
  const file = el.file.files?.[0];
  if (!file) return;
  state.attachment = null;
  el.error.textContent = '';
  el.attached.textContent = text.uploading;
  uploadAttachment(state.who, file)
    .then((id) => {
      state.attachment = id;
      el.attached.textContent = fill(text.attached, { name: file.name });
      // With no words yet, the file's name is the message.
      if (!el.message.value.trim()) el.message.value = file.name.slice(0, 200);
    })
    .catch((error: unknown) => {
      el.attached.textContent = '';
      el.file.value = '';
      el.error.textContent = failure(error instanceof ApiCallError ? error.code : 0);
    });
}

function wire(): void {
  el.composer.addEventListener('submit', (event) => {
    event.preventDefault();
    send().catch((error: unknown) => {
      el.error.textContent = failure(error instanceof ApiCallError ? error.code : 0);
    });
  });
  el.message.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      el.composer.requestSubmit();
    }
  });
  el.message.addEventListener('input', () => {
    const c = state.conversation;
    if (!c || Date.now() - state.lastTyping < 1500) return;
    state.lastTyping = Date.now();
    state.socket?.send({ t: 'typing', conversationId: c.id });
  });
  el.file.addEventListener('change', attachChosen);
  el.rate.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = el.rate.querySelector<HTMLInputElement>('input[name=rating]:checked');
    const c = state.conversation;
    if (!chosen || !c) return;
    call<SupportConversation>(state.who, state.language, 'POST', `/support/conversation/${c.id}/rate`, {
      rating: Number(chosen.value),
    })
      .then((rated) => {
        state.conversation = rated;
        renderState();
      })
      .catch(() => {
        el.error.textContent = text.error;
      });
  });
  el.visitor.addEventListener('submit', (event) => {
    event.preventDefault();
    const email = el.visitorEmail.value.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email)) {
      el.visitorError.textContent = text.invalidEmail;
      el.visitorEmail.setAttribute('aria-invalid', 'true');
      return;
    }
    startVisitor(email, state.language)
      .then((who) => {
        state.who = who;
        return begin();
      })
      .catch(() => {
        el.visitorError.textContent = text.error;
      });
  });
  document.addEventListener('visibilitychange', acknowledge);
}

function supportMail(): void {
  fetch('/swx/customer/index/getParamByKey/supportEmail')
    .then((response) => response.json() as Promise<{ code?: number; data?: { value?: unknown } }>)
    .then((body) => {
      const value = body.data?.value;
      const mail = document.getElementById('mail');
      if (body.code !== 200 || typeof value !== 'string' || !(mail instanceof HTMLAnchorElement)) return;
      mail.textContent = value;
      mail.href = `mailto:${value}`;
    })
    .catch(() => undefined);
}

languagePicker();
applyLanguage();
wire();
supportMail();
call<{ agentsOnline: boolean }>(state.who, state.language, 'GET', '/support/status')
  .then((status) => {
    state.agentsOnline = status.agentsOnline;
    renderState();
  })
  .catch(() => undefined);
if (state.who.token || state.who.visitor) void begin().catch(() => askVisitor());
else askVisitor();
