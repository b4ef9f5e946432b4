import { Type, type SchemaOptions, type TLiteral, type TNull, type TSchema, type TUnion } from '@sinclair/typebox';

/**
 * The wire's shapes are TypeBox schemas (docs/architecture.md, `src/protocol/`): one declaration gives the
 * static type (`Static<typeof X>`), the compiled check (params-check.ts) and the JSON Schema that
 * rpc.discover publishes. These are the few builders the declarations share.
 */

/** A params object refuses unknown fields, so that a misspelt parameter never passes silently. */
export const STRICT = { additionalProperties: false } as const;

/** One of a list of string constants. */
export function Literals<const T extends readonly string[]>(values: T, options?: SchemaOptions): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as never;
}

/** `T` or null. */
export function Nullable<T extends TSchema>(schema: T, options?: SchemaOptions): TUnion<[T, TNull]> {
  return Type.Union([schema, Type.Null()], options);
}
