import type { Disposable } from '../../base/disposable.ts';
import type { MethodDecl } from '../../protocol/method.ts';
import type { Connection } from './connection.ts';

/** What a handler knows of the request beyond its params. */
export interface RequestContext {
  readonly connection: Connection;
  /** Aborted when the client's connection closes: long waits stop on it. */
  readonly signal: AbortSignal;
}

/** A declared method bound to the function that serves it. */
export interface HandlerBinding {
  readonly method: MethodDecl<unknown, unknown>;
  readonly handle: (params: unknown, context: RequestContext) => unknown;
}

export function implement<P, R>(
  method: MethodDecl<P, R>,
  handle: (params: P, context: RequestContext) => R | Promise<R>,
): HandlerBinding {
  return { method: method as MethodDecl<unknown, unknown>, handle: handle as HandlerBinding['handle'] };
}

/** One feature of the daemon as its `start…` returns it: disposed with the daemon, serving `handlers`. */
export interface DaemonPart extends Disposable {
  readonly handlers: readonly HandlerBinding[];
}
