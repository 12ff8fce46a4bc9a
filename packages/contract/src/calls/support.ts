import { z } from 'zod/mini';
import { wireId } from '../ids.ts';
import {
  supportConversation,
  supportEmail,
  supportHistory,
  supportOpenBody,
  supportRating,
} from '../support.ts';
import { uploadedFile } from '../uploads.ts';
import { type CallDefinition, call } from './define.ts';

/**
 * The customer-service chat (`modules/support`): a signed-in customer's token, or a visitor's
 * token in the `x-support-visitor` header. Messages go over the websocket `/support/ws`.
 */
export const supportCalls = {
  getSupportStatus: call({
    method: 'GET',
    path: '/support/status',
    summary: 'Whether an agent is online now (the page says so before the customer types)',
    auth: false,
    status: 'live',
    data: z.object({ agentsOnline: z.boolean() }),
  }),
  startSupportVisitor: call({
    method: 'POST',
    path: '/support/visitor',
    summary: "A visitor's token for the chat, given an e-mail address for the answers",
    auth: false,
    status: 'live',
    body: z.object({ email: supportEmail }),
    data: z.object({ visitorToken: z.string() }),
  }),
  openSupportConversation: call({
    method: 'POST',
    path: '/support/conversation',
    summary: "My conversation not yet resolved, or a new one (customer token or visitor's header)",
    auth: false,
    status: 'live',
    body: supportOpenBody,
    data: supportHistory,
  }),
  getMySupportConversation: call({
    method: 'GET',
    path: '/support/mine',
    summary: 'My latest conversation and its transcript, or null when I have none (nothing is created)',
    auth: false,
    status: 'live',
    data: z.nullable(supportHistory),
  }),
  getSupportConversation: call({
    method: 'GET',
    path: '/support/conversation/:id',
    summary: "One of my conversations and its transcript (never the agents' notes)",
    auth: false,
    status: 'live',
    params: z.object({ id: wireId() }),
    data: supportHistory,
  }),
  rateSupportConversation: call({
    method: 'POST',
    path: '/support/conversation/:id/rate',
    summary: 'Rate a resolved conversation of mine, 1 to 5, once per resolution',
    auth: false,
    status: 'live',
    params: z.object({ id: wireId() }),
    body: z.object({ rating: supportRating }),
    data: supportConversation,
  }),
  uploadSupportAttachment: call({
    method: 'POST',
    path: '/support/attachment',
    summary:
      'Attach a picture or a PDF to the chat, as a customer or a visitor (multipart/form-data, one part named "file"): checked by its bytes and re-encoded like every upload (over 5 MB: 10034); answers its id, sent with the next message. Served at GET /swx/support/files/{id} to the conversation\'s participants only',
    auth: false,
    status: 'live',
    data: uploadedFile,
  }),
} as const satisfies Record<string, CallDefinition>;
