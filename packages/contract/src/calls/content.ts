import { z } from 'zod/mini';
import {
  contentDetail,
  contentIdParams,
  contentItem,
  contentListParams,
  contentTypeParams,
  helpSearchHit,
  helpSearchQuery,
} from '../content.ts';
import { type CallDefinition, call } from './define.ts';

/** Content pages: company, policy, footer, FAQ, announcements (`modules/content`). */
export const contentCalls = {
  listContents: call({
    method: 'GET',
    path: '/index/listContents/:type',
    summary: 'Content items of type 1 company, 2 policy or 3 other, in the request language',
    auth: false,
    status: 'live',
    params: contentTypeParams,
    data: z.array(contentItem),
  }),
  listContentsByList: call({
    method: 'GET',
    path: '/index/listContents/:type/:x',
    summary:
      'Type 4: every footer item (x = list id, 1 Chinese, 2 other); 5: FAQ of category x; 6: announcements of category x',
    auth: false,
    status: 'live',
    params: contentListParams,
    data: z.array(contentItem),
  }),
  getContentsById: call({
    method: 'GET',
    path: '/index/getContentsById/:id',
    summary: 'One content item with its body',
    auth: false,
    status: 'live',
    params: contentIdParams,
    data: contentDetail,
  }),
  searchHelp: call({
    method: 'GET',
    path: '/index/searchHelp',
    summary:
      "Published FAQ articles and notices matching q, in the request language (English where a text is missing: the hit's language says so)",
    auth: false,
    status: 'live',
    query: helpSearchQuery,
    data: z.array(helpSearchHit),
  }),
} as const satisfies Record<string, CallDefinition>;
