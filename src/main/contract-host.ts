/**
 * Validates and dispatches contract requests; the one entry point both shells call.
 *
 * Input is checked against the contract's schema before a handler runs. Expected
 * failures (`FlintFailure`) become `{ ok: false }` with their message; anything
 * else is logged with its stack and reported generically, so internals never leak.
 */
import { findRequestByChannel, type RequestInput, type RequestName, type RequestOutput } from '../shared/contract';
import { requestSchemas } from '../shared/contract-schemas';
import { FlintFailure, fail, ok, type Result } from '../shared/result';
import type { Logger } from './logger';

/** One handler per request, receiving the schema-checked input. */
export type RequestHandlers = {
  [N in RequestName]: (input: RequestInput<N>) => Promise<RequestOutput<N>>;
};

export interface ContractHost {
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
}

export function createContractHost(handlers: RequestHandlers, logger: Logger): ContractHost {
  return {
    async invoke(channel, input) {
      const name = findRequestByChannel(channel);
      if (!name) return fail('unknown-channel', `Flint has no request named ${JSON.stringify(channel).slice(0, 80)}.`);
      const parsed = requestSchemas[name].safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
        return fail('invalid-input', `Invalid input for ${channel}${where}: ${issue?.message ?? 'rejected'}.`);
      }
      try {
        const handler = handlers[name] as (input: unknown) => Promise<unknown>;
        return ok(await handler(parsed.data));
      } catch (error) {
        if (error instanceof FlintFailure) return fail(error.code, error.message);
        logger.error(`request ${channel} failed`, error);
        return fail('internal', `Flint hit an internal error handling ${channel}; details are in its log.`);
      }
    },
  };
}
