import { adminCalls, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { readFilePart, withUploadScope } from '../uploads/uploads.routes.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { HelpService } from './content.help.ts';
import type { ContentService } from './content.service.ts';

export function contentRoutes(
  app: FastifyInstance,
  {
    content,
    help,
    staff,
    uploads,
  }: { content: ContentService; help: HelpService; staff: StaffService; uploads: UploadsService },
): void {
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
  mountCall(app, calls.searchHelp, ({ query, request }) => help.search(request.language, query.q));
  helpStaffRoutes(app, help, staff);
  mountStaffCall(app, staff, adminCalls.previewContentText, ({ body: { type, language, lines } }) =>
    content.preview(language, type, lines.join('\n')),
  );
  // The editor's images: uploaded by staff, checked and re-encoded like every upload.
  withUploadScope(app, (scope) =>
    mountStaffCall(scope, staff, adminCalls.uploadContentImage, ({ staff: session, request }) =>
      uploads.store(`staff:${session.staffId}`, 'content_image', (maxBytes) =>
        readFilePart(request, maxBytes),
      ),
    ),
  );
}

/** The back office's help-centre editor: every change audited by the service. */
function helpStaffRoutes(app: FastifyInstance, help: HelpService, staff: StaffService): void {
  mountStaffCall(app, staff, adminCalls.listHelpArticles, ({ query }) =>
    help.list(query.type === 'pages' ? 'pages' : query.type === '5' ? 5 : 6),
  );
  mountStaffCall(app, staff, adminCalls.getHelpArticle, ({ params }) => help.article(params.id));
  mountStaffCall(app, staff, adminCalls.createHelpArticle, ({ staff: session, body: { lines, ...rest } }) =>
    help.create(session, { ...rest, body: lines.join('\n') }),
  );
  mountStaffCall(
    app,
    staff,
    adminCalls.saveHelpDraft,
    ({ staff: session, params, body: { lines, ...rest } }) =>
      help.saveDraft(session, params.id, { ...rest, body: lines.join('\n') }),
  );
  mountStaffCall(app, staff, adminCalls.publishHelpArticle, ({ staff: session, params }) =>
    help.publish(session, params.id),
  );
  mountStaffCall(app, staff, adminCalls.unpublishHelpArticle, ({ staff: session, params }) =>
    help.unpublish(session, params.id),
  );
}
