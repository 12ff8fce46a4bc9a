import { z } from 'zod/mini';
import { type CallDefinition, CUSTOMER_API_BASE, calls } from './calls.ts';
import { ALL_CODES } from './codes.ts';
import { envelope } from './envelope.ts';
import { adminCalls } from './staff.ts';
import { ADMIN_API_BASE, type AdminCallDefinition } from './staffBase.ts';

/** The version both OpenAPI documents name. */
export const API_VERSION = '0.1.0';

/** The staff API's OpenAPI document, under the staff base: answered to a signed-in staff member only. */
export const ADMIN_OPENAPI_PATH = '/openapi.json';

/** What the builder reads of a call of either API. */
type DocumentedCall = Pick<
  CallDefinition,
  'method' | 'path' | 'summary' | 'params' | 'query' | 'body' | 'data'
>;

/** One API: its base path, its calls, and what its operations add (headers, security, extensions). */
type DocumentedApi<D extends DocumentedCall> = {
  title: string;
  base: string;
  calls: Record<string, D>;
  /** Parameters every operation takes besides its path and query ones. */
  parameters: unknown[];
  /** The operation's own fields: security, extensions, further responses. */
  operation: (definition: D) => Record<string, unknown>;
};

/** The OpenAPI 3.1 document of one API's calls, built from the contract so the two cannot drift. */
function buildDocument<D extends DocumentedCall>(
  api: DocumentedApi<D>,
  version: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, def] of Object.entries(api.calls)) {
    const openPath = api.base + def.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = [...api.parameters];
    for (const [source, location] of [
      [def.params, 'path'],
      [def.query, 'query'],
    ] as const) {
      if (!source) continue;
      const schema = z.toJSONSchema(source, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [param, paramSchema] of Object.entries(schema.properties ?? {})) {
        parameters.push({
          name: param,
          in: location,
          required: location === 'path' || (schema.required ?? []).includes(param),
          schema: paramSchema,
        });
      }
    }
    const { responses, ...own } = api.operation(def);
    const operation: Record<string, unknown> = {
      operationId: name,
      summary: def.summary,
      parameters,
      responses: {
        '200': {
          description: `Envelope; body code 200 or one of ${ALL_CODES.length} catalogue codes`,
          content: {
            'application/json': { schema: z.toJSONSchema(envelope(def.data), { unrepresentable: 'any' }) },
          },
        },
        '401': { description: 'Session expired (body code 401)' },
        ...(responses as Record<string, unknown> | undefined),
      },
      ...own,
    };
    if (def.body) {
      operation.requestBody = {
        content: {
          'application/json': { schema: z.toJSONSchema(def.body, { io: 'input', unrepresentable: 'any' }) },
        },
      };
    }
    const slot = paths[openPath] ?? {};
    slot[def.method.toLowerCase()] = operation;
    paths[openPath] = slot;
  }
  return {
    openapi: '3.1.0',
    info: { title: api.title, version },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    paths,
  };
}

/** Builds the OpenAPI 3.1 document of the customer API from the contract. */
export function buildOpenApi(version: string): Record<string, unknown> {
  return buildDocument<CallDefinition>(
    {
      title: 'SWX customer API',
      base: CUSTOMER_API_BASE,
      calls,
      parameters: [
        {
          name: 'virtually',
          in: 'header',
          required: false,
          schema: { enum: ['NO', 'YES'] },
          description: 'NO = demo book (default), YES = live book',
        },
      ],
      operation: (def) => ({ 'x-status': def.status, ...(def.auth ? { security: [{ token: [] }] } : {}) }),
    },
    version,
  );
}

/**
 * Builds the OpenAPI 3.1 document of the staff API (`/swx/admin`) from the contract's staff calls:
 * each operation names the roles allowed (`x-roles`; `public` for the sign-in steps) and the
 * refusals particular to it (`x-refusals`: code → when).
 */
export function buildStaffOpenApi(version: string): Record<string, unknown> {
  return buildDocument<AdminCallDefinition>(
    {
      title: 'SWX staff API',
      base: ADMIN_API_BASE,
      calls: adminCalls,
      parameters: [],
      operation: (def) => ({
        'x-roles': def.roles,
        ...(def.refusals ? { 'x-refusals': def.refusals } : {}),
        ...(def.roles === 'public'
          ? {}
          : {
              security: [{ token: [] }],
              responses: { '403': { description: 'A role the call does not allow (body code 10029)' } },
            }),
      }),
    },
    version,
  );
}
