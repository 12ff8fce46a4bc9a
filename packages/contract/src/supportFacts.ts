/**
 * The chat's plain facts, no schema (support.ts builds its schemas beside them): a module of its
 * own so that the service page (service.html) reads them without building the chat's schemas,
 * and the customer app's first chunks stay free of them (scripts/budget.mjs).
 */

/** The websocket of the chat, on the server's own origin. */
export const SUPPORT_WS_PATH = '/support/ws';
/** The header that carries a visitor's token on the chat's HTTP calls. */
export const SUPPORT_VISITOR_HEADER = 'x-support-visitor';
/**
 * A chat attachment, served only to the conversation's participants: its customer (session
 * token) or visitor (the header above), not for an agent's private note; and the chat's agents
 * (staff token of the supportChat duty). Anyone else: 10028.
 */
export const SUPPORT_FILE_PATH = '/swx/support/files/:id';
export const supportFileUrl = (id: string) => SUPPORT_FILE_PATH.replace(':id', encodeURIComponent(id));
