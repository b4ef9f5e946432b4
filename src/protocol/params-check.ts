import type { TObject } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { MethodDecl } from './method.ts';
import { refusal } from './refusal.ts';

const compiled = new WeakMap<TObject, TypeCheck<TObject>>();

/** Compiled on first use: a client command, which never checks params, never pays for compiling them. */
function compiledCheck(schema: TObject): TypeCheck<TObject> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * A request's params checked against its method's declaration and returned typed, or an
 * `invalid_params` refusal naming the field (refusal.ts). Absent params count as `{}`. `root` names
 * the params object itself in messages: '' on the daemon's socket, 'params' on the web's.
 */
export function checkParams<P>(method: MethodDecl<P, unknown>, value: unknown, root = ''): P {
  const params = value === undefined ? {} : value;
  const check = compiledCheck(method.params);
  if (check.Check(params)) return params as P;
  throw refusal(check.Errors(params), params, root);
}
