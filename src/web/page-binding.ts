import type { ParamsOf, ResultOf } from '../protocol/method.ts';
import { checkParams } from '../protocol/params-check.ts';
import type { WebMethodDecl } from './wire.ts';

/** One web method and how a page socket serves it: its params checked by its declaration, its result typed by it. */
export interface PageBinding {
  readonly method: WebMethodDecl<unknown, unknown>;
  handle(raw: unknown): Promise<unknown>;
}

/** Binds a handler to its declaration, as the daemon's `implement` does: the handler's result must be the declared one. */
export function servePage<M extends WebMethodDecl<any, any>>(method: M, handler: (params: ParamsOf<M>) => ResultOf<M> | Promise<ResultOf<M>>): PageBinding {
  return { method, handle: async (raw) => handler(checkParams(method, raw, 'params') as ParamsOf<M>) };
}
