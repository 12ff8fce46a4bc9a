import fastifyMultipart from '@fastify/multipart';
import { Code, calls, UPLOAD_FIELD, UPLOAD_FILE_PATH, uploadIdParams } from '@swx/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, mountCall, sendCode, tokenOf } from '../../platform/http.ts';
import type { StoredFile } from '../../platform/storage.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { UploadsService } from './uploads.service.ts';

/** Room for the multipart framing around the file: boundary lines and the part's headers. */
const FRAMING_BYTES = 16 * 1024;
/** An unread body up to this size is drained after an early refusal (see the onSend hook). */
const DRAIN_BYTES = 5 * 1024 * 1024;

/**
 * The file part of a multipart request, read as a stream and kept only up to `maxBytes`: a body
 * that declares more is refused before a byte is read; a file that turns out longer is read to
 * its end without being kept (busboy truncates it) and refused. Either way 10034, nothing stored.
 */
/** The body length the client declared, or null when it declared none (a chunked body). */
function declaredLength(request: FastifyRequest): number | null {
  const declared = Number(request.headers['content-length']);
  return request.headers['content-length'] !== undefined && Number.isFinite(declared) ? declared : null;
}

export async function readFilePart(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBytes + FRAMING_BYTES)
    throw new ApiError(Code.FILE_TOO_LARGE, { maxBytes });
  const part = await request.file({
    // One byte over the limit is enough to know the file is too large.
    limits: { fileSize: maxBytes + 1, files: 1, fields: 0, parts: 1, headerPairs: 20, fieldNameSize: 64 },
    throwFileSizeLimit: false,
  });
  if (!part || part.fieldname !== UPLOAD_FIELD)
    throw new ApiError(Code.INVALID_INPUT, [{ path: UPLOAD_FIELD, issue: 'required' }]);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total <= maxBytes) chunks.push(chunk);
  }
  if (total > maxBytes || part.file.truncated) throw new ApiError(Code.FILE_TOO_LARGE, { maxBytes });
  return Buffer.concat(chunks, total);
}

/**
 * A private file: never cached, never sniffed (the platform's nosniff); a picture shown inline, a
 * PDF downloaded, never opened in the site's origin.
 */
export function sendPrivateFile(reply: FastifyReply, file: StoredFile) {
  const pdf = file.contentType === 'application/pdf';
  return reply
    .header('content-type', file.contentType)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', pdf ? 'attachment; filename="document.pdf"' : 'inline')
    .send(file.bytes);
}

/**
 * Routes that take one uploaded file: multipart is parsed only in this scope (every other route
 * keeps refusing it as a body it cannot read); read the file with `readFilePart`.
 */
export function withUploadScope(app: FastifyInstance, routes: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart);
    // A refusal sent before the body was read (no session, a wrong part, a declared size over the
    // limit): a body of a few megabytes is read and dropped, so the client, still sending, gets
    // its answer on a healthy connection; a larger or unknown one closes the connection instead
    // of reading what nobody will keep.
    scope.addHook('onSend', async (request, reply) => {
      if (request.raw.complete) return;
      const declared = declaredLength(request);
      if (declared !== null && declared <= DRAIN_BYTES) request.raw.resume();
      else reply.header('connection', 'close');
    });
    routes(scope);
  });
}

export function uploadsRoutes(app: FastifyInstance, uploads: UploadsService, staff: StaffService): void {
  withUploadScope(app, (scope) =>
    mountCall(scope, calls.upload, ({ customer, params, request }) =>
      uploads.store(customer.userId, params.purpose, (maxBytes) => readFilePart(request, maxBytes)),
    ),
  );

  /**
   * The one guarded file route: a customer's token reads only their own uploads; a staff token
   * reads the uploads whose purpose names the staff member's role, and each view is audited. Any
   * other id (someone else's, a purpose not theirs, none at all) is "nothing found"; no session
   * is 401.
   */
  app.get(UPLOAD_FILE_PATH, async (request, reply) => {
    const parsed = uploadIdParams.safeParse(request.params);
    const id = parsed.success ? parsed.data.id : null;
    // A file its module made public (an image of a published help article or page): anyone reads it.
    const open = id ? await uploads.filePublic(id) : null;
    if (open) return sendPrivateFile(reply, open);
    if (request.customer) {
      const file = id ? await uploads.fileForOwner(request.customer.userId, id) : null;
      if (!file) return sendCode(reply, request, Code.NOT_FOUND);
      return sendPrivateFile(reply, file);
    }
    const token = tokenOf(request);
    const session = token ? await staff.resolveSession(token) : null;
    if (!session) return sendCode(reply, request, Code.SESSION_EXPIRED);
    const file = id ? await uploads.fileForStaff(session.role, id) : null;
    if (!file) return sendCode(reply, request, Code.NOT_FOUND);
    await staff.record(session, 'upload.viewed', `upload:${file.upload.id}`, {
      purpose: file.upload.purpose,
      ownerId: file.upload.ownerId,
      ...(file.upload.ownerRef ? { ownerRef: file.upload.ownerRef } : {}),
    });
    return sendPrivateFile(reply, file);
  });
}
