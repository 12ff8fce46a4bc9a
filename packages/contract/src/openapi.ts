import { z } from 'zod/mini';
import { type CallDefinition, CUSTOMER_API_BASE, calls } from './calls.ts';
import { ALL_CODES } from './codes.ts';
import { envelope } from './envelope.ts';

/** Builds the OpenAPI 3.1 document of the customer API from the contract, so the two cannot drift. */
export function buildOpenApi(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, def] of Object.entries(calls) as [string, CallDefinition][]) {
    const openPath = CUSTOMER_API_BASE + def.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = [
      {
        name: 'virtually',
        in: 'header',
        required: false,
        schema: { enum: ['NO', 'YES'] },
        description: 'NO = demo book (default), YES = live book',
      },
    ];
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
      },
      'x-status': def.status,
    };
    if (def.auth) operation.security = [{ token: [] }];
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
    info: { title: 'SWX customer API', version },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    paths,
  };
}
