import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { ParamsService } from './params.service.ts';

export function paramsRoutes(app: FastifyInstance, params: ParamsService): void {
  mountCall(app, calls.getParamByKey, ({ params: p }) => params.getPublic(p.key));
}
