import type { ErrorCode } from './errors.ts';
import type { Validator } from './validate.ts';

/** Type-only marker carrying a method's result shape. */
export interface Returns<T> {
  readonly __result?: T;
}

export function returns<T>(): Returns<T> {
  return {};
}

/** A method declared once and imported by both daemon and CLI. */
export interface MethodDecl<P, R> {
  readonly name: string;
  readonly summary: string;
  readonly params: Validator<P>;
  readonly result: Returns<R>;
  /** Application errors it may answer with, besides the generic ones every method can give. */
  readonly errors: readonly ErrorCode[];
}

export type ParamsOf<M> = M extends MethodDecl<infer P, unknown> ? P : never;
export type ResultOf<M> = M extends MethodDecl<unknown, infer R> ? R : never;

export function defineMethod<P, R>(decl: MethodDecl<P, R>): MethodDecl<P, R> {
  return Object.freeze(decl);
}

/** A server-to-client notification (no id, no reply). */
export interface NotificationDecl<P> {
  readonly name: string;
  readonly summary: string;
  readonly params: Returns<P>;
}

export function defineNotification<P>(decl: NotificationDecl<P>): NotificationDecl<P> {
  return Object.freeze(decl);
}
