-- The customer-service chat (modules/support): visitors who gave an e-mail address, agents'
-- presence and limits, conversations, their append-only transcript, and canned replies.

-- A visitor (no account): the e-mail address answers are mailed to, and the SHA-256 of the token
-- the service page keeps.
CREATE TABLE support_visitors (
  id         bigserial   PRIMARY KEY,
  email      text        NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  token_hash text        NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);

-- An agent (staff of the supportChat duty): online until `online_until` (the open inbox renews
-- it), at most `max_open` conversations open at once; `last_assigned` orders the round robin.
CREATE TABLE support_agents (
  staff_id      bigint      PRIMARY KEY REFERENCES staff (id),
  max_open      integer     NOT NULL DEFAULT 5 CHECK (max_open BETWEEN 1 AND 50),
  online_until  timestamptz,
  last_assigned bigint
);
CREATE SEQUENCE support_assign_seq;

-- A conversation of one customer or one visitor. waiting → open (an agent) → resolved, and
-- reopened. The receipts are message ids: how far each side has received and read the other's.
CREATE TABLE support_conversations (
  id                 bigserial   PRIMARY KEY,
  user_id            bigint      REFERENCES users (id),
  visitor_id         bigint      REFERENCES support_visitors (id),
  email              text,
  language           text        NOT NULL,
  state              text        NOT NULL CHECK (state IN ('waiting', 'open', 'resolved')),
  agent_id           bigint      REFERENCES staff (id),
  by_mail            boolean     NOT NULL DEFAULT false,
  waiting_since      timestamptz NOT NULL,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  resolved_at        timestamptz,
  rating             smallint    CHECK (rating BETWEEN 1 AND 5),
  customer_delivered bigint      NOT NULL DEFAULT 0,
  customer_read      bigint      NOT NULL DEFAULT 0,
  agent_delivered    bigint      NOT NULL DEFAULT 0,
  agent_read         bigint      NOT NULL DEFAULT 0,
  CHECK ((user_id IS NULL) <> (visitor_id IS NULL)),
  CHECK ((state = 'open') = (agent_id IS NOT NULL) OR state = 'resolved'),
  CHECK (rating IS NULL OR state = 'resolved')
);
CREATE INDEX support_conversations_user_idx ON support_conversations (user_id, id DESC);
CREATE INDEX support_conversations_visitor_idx ON support_conversations (visitor_id, id DESC);
CREATE INDEX support_conversations_waiting_idx ON support_conversations (waiting_since, id) WHERE state = 'waiting';
CREATE INDEX support_conversations_agent_idx ON support_conversations (agent_id) WHERE state = 'open';

-- The transcript: every line kept as written (plain text), never changed or deleted. `private`
-- lines are agents' notes; system lines record an event.
CREATE TABLE support_messages (
  id              bigserial   PRIMARY KEY,
  conversation_id bigint      NOT NULL REFERENCES support_conversations (id),
  author          text        NOT NULL CHECK (author IN ('customer', 'agent', 'system')),
  staff_id        bigint      REFERENCES staff (id),
  private         boolean     NOT NULL DEFAULT false,
  body            text        NOT NULL CHECK (length(body) <= 1000),
  attachment      text        REFERENCES uploads (id),
  event           text        CHECK (event IN ('assigned', 'transferred', 'resolved', 'reopened', 'rated')),
  created_at      timestamptz NOT NULL,
  CHECK ((author = 'agent') = (staff_id IS NOT NULL) OR author = 'system'),
  CHECK (NOT private OR author = 'agent')
);
CREATE INDEX support_messages_conversation_idx ON support_messages (conversation_id, id);

CREATE FUNCTION support_messages_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'support_messages is append-only';
END;
$$;
CREATE TRIGGER support_messages_append_only BEFORE UPDATE OR DELETE ON support_messages
  FOR EACH ROW EXECUTE FUNCTION support_messages_append_only();

-- Canned replies: one text per language and key.
CREATE TABLE support_canned (
  id       bigserial PRIMARY KEY,
  key      text      NOT NULL CHECK (key ~ '^[a-z][a-z0-9_]{1,39}$'),
  language text      NOT NULL,
  title    text      NOT NULL CHECK (length(title) BETWEEN 1 AND 80),
  body     text      NOT NULL CHECK (length(body) BETWEEN 1 AND 1000),
  UNIQUE (key, language)
);

INSERT INTO support_canned (key, language, title, body) VALUES
('greeting', 'en', 'Greeting', 'Hello, thank you for writing to us. I am reading your message now.'),
('details', 'en', 'Ask for details', 'Could you tell me the time of the operation and, if there is one, its order number?'),
('anything_else', 'en', 'Anything else', 'Is there anything else I can help you with today?'),
('greeting', 'ja', 'あいさつ', 'お問い合わせいただきありがとうございます。ただいまメッセージを確認しています。'),
('details', 'ja', '詳細の確認', '操作を行った時刻と、注文番号があればお知らせいただけますか？'),
('anything_else', 'ja', 'ほかにご用件', 'ほかにお手伝いできることはありますか？'),
('greeting', 'ko', '인사', '문의해 주셔서 감사합니다. 지금 메시지를 확인하고 있습니다.'),
('details', 'ko', '세부 정보 요청', '작업한 시각과 주문 번호가 있다면 알려 주시겠어요?'),
('anything_else', 'ko', '추가 문의', '오늘 더 도와드릴 일이 있을까요?'),
('greeting', 'de', 'Begrüßung', 'Hallo, danke für Ihre Nachricht. Ich lese sie gerade.'),
('details', 'de', 'Nach Details fragen', 'Können Sie mir die Uhrzeit des Vorgangs und, falls vorhanden, die Auftragsnummer nennen?'),
('anything_else', 'de', 'Sonst noch etwas', 'Kann ich Ihnen heute noch bei etwas anderem helfen?'),
('greeting', 'fr', 'Salutation', 'Bonjour, merci de nous avoir écrit. Je lis votre message maintenant.'),
('details', 'fr', 'Demander des détails', 'Pourriez-vous m''indiquer l''heure de l''opération et, s''il y en a un, son numéro d''ordre ?'),
('anything_else', 'fr', 'Autre chose', 'Puis-je vous aider pour autre chose aujourd''hui ?'),
('greeting', 'it', 'Saluto', 'Buongiorno, grazie per averci scritto. Sto leggendo il suo messaggio.'),
('details', 'it', 'Chiedere dettagli', 'Può indicarmi l''ora dell''operazione e, se c''è, il numero d''ordine?'),
('anything_else', 'it', 'Altro', 'Posso aiutarla con qualcos''altro oggi?'),
('greeting', 'es', 'Saludo', 'Hola, gracias por escribirnos. Estoy leyendo su mensaje ahora.'),
('details', 'es', 'Pedir detalles', '¿Podría indicarme la hora de la operación y, si lo tiene, el número de orden?'),
('anything_else', 'es', 'Algo más', '¿Puedo ayudarle con algo más hoy?'),
('greeting', 'ar', 'تحية', 'مرحبًا، شكرًا لتواصلك معنا. أقرأ رسالتك الآن.'),
('details', 'ar', 'طلب التفاصيل', 'هل يمكنك إخباري بوقت العملية ورقم الطلب إن وُجد؟'),
('anything_else', 'ar', 'شيء آخر', 'هل هناك أي شيء آخر يمكنني مساعدتك فيه اليوم؟'),
('greeting', 'hk', '問候', '您好，感謝您的來信，我正在閱讀您的訊息。'),
('details', 'hk', '詢問詳情', '請告訴我操作的時間，以及訂單編號（如有）。'),
('anything_else', 'hk', '其他問題', '今天還有其他需要我協助的地方嗎？'),
('greeting', 'zh', '问候', '您好，感谢您的来信，我正在阅读您的消息。'),
('details', 'zh', '询问详情', '请告诉我操作的时间，以及订单编号（如有）。'),
('anything_else', 'zh', '其他问题', '今天还有其他需要我协助的地方吗？');
