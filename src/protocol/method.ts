import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './errors.ts';

/** Type-only marker carrying a method's result shape (rpc.discover's result schemas are generated from it). */
export interface Returns<T> {
  readonly __result?: T;
}

export function returns<T>(): Returns<T> {
  return {};
}

type ResultSpec = TSchema | Returns<unknown>;
type ResultType<S> = S extends TSchema ? Static<S> : S extends Returns<infer R> ? R : never;

/**
 * A method declared once and imported by both daemon and clients; `N` is its literal name. `params`
 * is a strict object schema (schema.ts, STRICT), absent params counting as `{}`; `P` and `R` are the
 * static types of params and result, as `Static<>` gives them.
 */
export interface MethodDecl<P, R, N extends string = string> {
  readonly name: N;
  readonly summary: string;
  readonly params: TObject;
  readonly result: ResultSpec;
  /** Application errors it may answer with, besides the generic ones every method can give. */
  readonly errors: readonly ErrorCode[];
  /** Type-only, never set: the static types of params and result. */
  readonly __static?: { params: P; result: R };
}

export type ParamsOf<M> = M extends MethodDecl<infer P, unknown> ? P : never;
export type ResultOf<M> = M extends MethodDecl<unknown, infer R> ? R : never;

export function defineMethod<const N extends string, PS extends TObject, RS extends ResultSpec>(decl: {
  readonly name: N;
  readonly summary: string;
  readonly params: PS;
  readonly result: RS;
  readonly errors: readonly ErrorCode[];
}): MethodDecl<Static<PS>, ResultType<RS>, N> {
  return Object.freeze(decl);
}

/** A server-to-client notification (no id, no reply). */
export interface NotificationDecl<P, N extends string = string> {
  readonly name: N;
  readonly summary: string;
  readonly params: ResultSpec;
  /** Type-only, never set: the static type of its params. */
  readonly __static?: { params: P };
}

export function defineNotification<const N extends string, PS extends ResultSpec>(decl: {
  readonly name: N;
  readonly summary: string;
  readonly params: PS;
}): NotificationDecl<ResultType<PS>, N> {
  return Object.freeze(decl);
}
