import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './errors.ts';

/**
 * A method declared once and imported by both daemon and clients; `N` is its literal name. `params`
 * is a strict object schema (schema.ts, STRICT), absent params counting as `{}`, and `result` the
 * schema of its answer; `P` and `R` are their static types, as `Static<>` gives them.
 */
export interface MethodDecl<P, R, N extends string = string> {
  readonly name: N;
  readonly summary: string;
  readonly params: TObject;
  readonly result: TSchema;
  /** Application errors it may answer with, besides the generic ones every method can give. */
  readonly errors: readonly ErrorCode[];
  /** Type-only, never set: the static types of params and result. */
  readonly __static?: { params: P; result: R };
}

export type ParamsOf<M> = M extends MethodDecl<infer P, unknown> ? P : never;
export type ResultOf<M> = M extends MethodDecl<unknown, infer R> ? R : never;

export function defineMethod<const N extends string, PS extends TObject, RS extends TSchema>(decl: {
  readonly name: N;
  readonly summary: string;
  readonly params: PS;
  readonly result: RS;
  readonly errors: readonly ErrorCode[];
}): MethodDecl<Static<PS>, Static<RS>, N> {
  return Object.freeze(decl);
}

/** A server-to-client notification (no id, no reply). */
export interface NotificationDecl<P, N extends string = string> {
  readonly name: N;
  readonly summary: string;
  readonly params: TSchema;
  /** Type-only, never set: the static type of its params. */
  readonly __static?: { params: P };
}

export function defineNotification<const N extends string, PS extends TSchema>(decl: {
  readonly name: N;
  readonly summary: string;
  readonly params: PS;
}): NotificationDecl<Static<PS>, N> {
  return Object.freeze(decl);
}
