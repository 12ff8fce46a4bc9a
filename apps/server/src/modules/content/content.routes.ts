import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { ContentService } from './content.service.ts';

export function contentRoutes(app: FastifyInstance, content: ContentService): void {
  mountCall(app, calls.listContents, ({ params, request }) => content.list(request.language, params.type));
  mountCall(app, calls.listContentsByList, ({ params, request }) =>
    content.listNumbered(
      request.language,
      params.type,
      params.x,
      request.headers['accept-language'] !== undefined,
    ),
  );
  mountCall(app, calls.getContentsById, ({ params, request }) => content.get(request.language, params.id));
}
