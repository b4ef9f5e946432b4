import { Kind, type TSchema } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { CorralError } from './errors.ts';

/**
 * Turns the errors of a failed params check into the one refusal the caller sees: `invalid_params`,
 * its message naming the field (`"cols" must be an integer from 2 to 1000`, `"args[0]" ...`) and
 * `data.field` holding it. An unknown field is named first; otherwise the first error found. A schema
 * may carry `errorMessage`, what its pattern or its minimum of items means in words.
 */
export function refusal(errors: Iterable<ValueError>, params: unknown, root: string): CorralError {
  const all = [...errors];
  const first = all.find((error) => error.type === ValueErrorType.ObjectAdditionalProperties) ?? all[0];
  if (first === undefined) return new CorralError('invalid_params', `${root === '' ? 'params' : `"${root}"`} are not valid`, { field: root });
  const error = leaf(first);
  const field = fieldOf(error.path, params, root);
  const subject = field === '' ? 'params' : `"${field}"`;
  return new CorralError('invalid_params', `${subject} ${problem(error)}`, { field });
}

/** `/args/0` under root `params` is `params.args[0]`: indexes of arrays in brackets, keys after dots. */
function fieldOf(path: string, params: unknown, root: string): string {
  let field = root;
  let at: unknown = params;
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    field = Array.isArray(at) ? `${field}[${key}]` : field === '' ? key : `${field}.${key}`;
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  }
  return field;
}

/** The error to describe: within a union of shapes, the first error of the branch the value's type fits. */
function leaf(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union || allLiterals(error.schema)) return error;
  const firsts = error.errors.map((branch) => branch.First()).filter((e): e is ValueError => e !== undefined);
  const fitting = firsts.find((e) => !KIND_MISMATCH.has(e.type));
  return fitting ? leaf(fitting) : error;
}

const KIND_MISMATCH = new Set([
  ValueErrorType.String,
  ValueErrorType.Integer,
  ValueErrorType.Number,
  ValueErrorType.Boolean,
  ValueErrorType.Array,
  ValueErrorType.Object,
  ValueErrorType.Null,
  ValueErrorType.Literal,
]);

function allLiterals(schema: TSchema): boolean {
  return schema[Kind] === 'Union' && (schema.anyOf as TSchema[]).every((branch) => branch[Kind] === 'Literal');
}

function integerRange(schema: TSchema): string {
  return `an integer from ${schema.minimum ?? Number.MIN_SAFE_INTEGER} to ${schema.maximum ?? Number.MAX_SAFE_INTEGER}`;
}

/** What a value should have been, in words, for a union whose branches all refused its type. */
function expected(schema: TSchema): string {
  switch (schema[Kind]) {
    case 'String':
      return 'a string';
    case 'Integer':
      return integerRange(schema);
    case 'Boolean':
      return 'true or false';
    case 'Array':
      return 'an array';
    case 'Object':
    case 'Record':
      return 'an object';
    case 'Null':
      return 'null';
    case 'Literal':
      return JSON.stringify(schema.const);
    default:
      return 'a valid value';
  }
}

function problem(error: ValueError): string {
  const { schema } = error;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.ObjectAdditionalProperties:
      if (schema[Kind] === 'Record') return `is not a valid key (/${Object.keys(schema.patternProperties as object)[0]}/)`;
      return 'is not a known field';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.ObjectMaxProperties:
      return `must be an object of at most ${schema.maxProperties} entries`;
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? 'must be a non-empty string' : `must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.StringPattern:
      return `must be ${schema.errorMessage ?? `a string matching /${schema.pattern}/`}`;
    case ValueErrorType.Integer:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
      return `must be ${integerRange(schema)}`;
    case ValueErrorType.Boolean:
      return 'must be true or false';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.ArrayMinItems:
      return schema.errorMessage ?? `must be an array of at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.ArrayMaxItems:
      return `must be an array of at most ${schema.maxItems} items`;
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Union:
      if (allLiterals(schema)) return `must be one of ${(schema.anyOf as TSchema[]).map((branch) => branch.const).join(', ')}`;
      return `must be ${(schema.anyOf as TSchema[]).map(expected).join(' or ')}`;
    default:
      return `is not valid: ${error.message}`;
  }
}
