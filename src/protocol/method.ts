import type { ErrorCode } from './errors.ts';
import type { Validator } from './validate.ts';

/** Type-only marker carrying a method's result shape (rpc.discover's result schemas are generated from it). */
export interface Returns<T> {
  readonly __result?: T;
}

export function returns<T>(): Returns<T> {
  return {};
}

/** A method declared once and imported by both daemon and clients; `N` is its literal name. */
export interface MethodDecl<P, R, N extends string = string> {
  readonly name: N;
  readonly summary: string;
  readonly params: Validator<P>;
  readonly result: Returns<R>;
  /** Application errors it may answer with, besides the generic ones every method can give. */
  readonly errors: readonly ErrorCode[];
}

export type ParamsOf<M> = M extends MethodDecl<infer P, unknown> ? P : never;
export type ResultOf<M> = M extends MethodDecl<unknown, infer R> ? R : never;

export function defineMethod<const N extends string, P, R>(decl: MethodDecl<P, R, N>): MethodDecl<P, R, N> {
  return Object.freeze(decl);
}

/** A server-to-client notification (no id, no reply). */
export interface NotificationDecl<P, N extends string = string> {
  readonly name: N;
  readonly summary: string;
  readonly params: Returns<P>;
}

export function defineNotification<const N extends string, P>(decl: NotificationDecl<P, N>): NotificationDecl<P, N> {
  return Object.freeze(decl);
}
