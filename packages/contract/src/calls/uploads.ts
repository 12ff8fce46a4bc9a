import { uploadedFile, uploadPurposeParams } from '../uploads.ts';
import { type CallDefinition, call } from './define.ts';

/** Uploads (`modules/uploads`): one image for a purpose, taken later by a feature call by its id. */
export const uploadCalls = {
  upload: call({
    method: 'POST',
    path: '/upload/:purpose',
    summary:
      'Upload one image for a purpose (multipart/form-data, one part named "file"): read as a stream up to the purpose\'s limit (over it: 10034, nothing stored), checked by its bytes (JPG, JPEG 2000, PNG; else 10026), re-encoded without metadata; answers its id, which a feature call then takes. Served back at GET /swx/files/{id} to its owner and to staff',
    auth: true,
    status: 'live',
    params: uploadPurposeParams,
    data: uploadedFile,
  }),
} as const satisfies Record<string, CallDefinition>;
