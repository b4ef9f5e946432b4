// Generates src/protocol/openrpc/wire-types.generated.ts: the JSON Schema of every method's result,
// every notification's params and every event's data, read from the TypeScript declarations in
// src/protocol by the compiler. The daemon serves them in rpc.discover; a test fails when the file
// is stale, so nobody writes a schema by hand. Run: npm run schema:types
import { readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

type Schema = { [keyword: string]: unknown };

export interface WireSchemas {
  results: Record<string, Schema>;
  notifications: Record<string, Schema>;
  events: Record<string, Schema>;
  components: Record<string, Schema>;
}

const root = fileURLToPath(new URL('../', import.meta.url));
export const GENERATED = `${root}src/protocol/openrpc/wire-types.generated.ts`;

function protocolFiles(dir = `${root}src/protocol`): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return protocolFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.generated.ts') ? [path] : [];
  });
}

export function generateWireSchemas(): WireSchemas {
  const files = protocolFiles();
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const out: WireSchemas = { results: {}, notifications: {}, events: {}, components: {} };
  const componentOwners = new Map<string, ts.Symbol>();

  const describe = (symbol: ts.Symbol): string | undefined => {
    const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    if (doc) return doc;
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!declaration) return undefined;
    const text = declaration.getSourceFile().text;
    const trailing = ts.getTrailingCommentRanges(text, declaration.end + 1) ?? ts.getTrailingCommentRanges(text, declaration.end);
    const line = trailing?.find((range) => range.kind === ts.SyntaxKind.SingleLineCommentTrivia);
    return line ? text.slice(line.pos + 2, line.end).trim() : undefined;
  };

  const namedSymbol = (type: ts.Type): ts.Symbol | undefined => {
    if (type.aliasSymbol && !(type.aliasTypeArguments?.length ?? 0)) return type.aliasSymbol;
    const symbol = type.getSymbol();
    const generic = ((type as ts.TypeReference).typeArguments?.length ?? 0) > 0;
    if (symbol && symbol.flags & ts.SymbolFlags.Interface && !generic) return symbol;
    return undefined;
  };

  const toSchema = (type: ts.Type, depth: number): Schema => {
    if (depth > 24) throw new Error(`type nests too deep: ${checker.typeToString(type)}`);
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (flags & ts.TypeFlags.Never) return { not: {} };
    if (type.isStringLiteral()) return { type: 'string', const: type.value };
    if (type.isNumberLiteral()) return { type: 'number', const: type.value };
    if (flags & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: (type as { intrinsicName?: string }).intrinsicName === 'true' };
    if (flags & ts.TypeFlags.String) return { type: 'string' };
    if (flags & ts.TypeFlags.Number) return { type: 'number' };
    if (flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (flags & ts.TypeFlags.Null) return { type: 'null' };
    if (type.isUnion()) return unionSchema(type, depth);
    const named = namedSymbol(type);
    if (named && depth > 0) return reference(named, type, depth);
    return structure(type, depth);
  };

  const unionSchema = (type: ts.UnionType, depth: number): Schema => {
    let members = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const booleans = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const rest: Schema[] = [];
    if (booleans.length === 2) {
      members = members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
      rest.push({ type: 'boolean' });
    }
    if (members.length > 0 && members.every((t) => t.isStringLiteral())) {
      rest.unshift({ type: 'string', enum: members.map((t) => (t as ts.StringLiteralType).value) });
    } else if (members.length > 0 && members.every((t) => t.isNumberLiteral())) {
      rest.unshift({ type: 'number', enum: members.map((t) => (t as ts.NumberLiteralType).value) });
    } else {
      rest.unshift(...members.map((t) => toSchema(t, depth + 1)));
    }
    return rest.length === 1 ? rest[0]! : { anyOf: rest };
  };

  const reference = (symbol: ts.Symbol, type: ts.Type, depth: number): Schema => {
    const name = symbol.getName();
    const owner = componentOwners.get(name);
    if (owner && owner !== symbol) return structure(type, depth);
    if (!owner) {
      componentOwners.set(name, symbol);
      out.components[name] = {};
      const schema = structure(type, depth);
      const doc = describe(symbol);
      out.components[name] = doc ? { description: doc, ...schema } : schema;
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  const structure = (type: ts.Type, depth: number): Schema => {
    if (checker.isArrayType(type)) return { type: 'array', items: toSchema(checker.getTypeArguments(type as ts.TypeReference)[0]!, depth + 1) };
    if (checker.isTupleType(type)) {
      const items = checker.getTypeArguments(type as ts.TypeReference).map((t) => toSchema(t, depth + 1));
      return { type: 'array', items, minItems: items.length, maxItems: items.length };
    }
    if (type.isUnion()) return unionSchema(type, depth);
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const name = property.getName();
      if (name.startsWith('__')) continue;
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = declaration ? checker.getTypeOfSymbolAtLocation(property, declaration) : checker.getTypeOfSymbol(property);
      const schema = toSchema(propertyType, depth + 1);
      const doc = describe(property);
      properties[name] = doc && !('$ref' in schema) ? { description: doc, ...schema } : schema;
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(name);
    }
    const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
    const schema: Schema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    if (index) schema.additionalProperties = toSchema(index.type, depth + 1);
    return schema;
  };

  const returnsOf = (node: ts.Expression): ts.Type => {
    const marker = checker.getTypeAtLocation(node);
    const carried = marker.getProperty('__result');
    if (!carried) throw new Error(`${node.getText()} is not returns<T>()`);
    return checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(carried, node));
  };

  const property = (literal: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined => {
    for (const element of literal.properties) {
      if (ts.isPropertyAssignment(element) && element.name.getText() === key) return element.initializer;
    }
    return undefined;
  };

  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
        const which = node.expression.text;
        const literal = node.arguments[0];
        const nameNode = property(literal, 'name');
        if ((which === 'defineMethod' || which === 'defineNotification') && nameNode && ts.isStringLiteral(nameNode)) {
          if (which === 'defineMethod') out.results[nameNode.text] = toSchema(returnsOf(property(literal, 'result')!), 0);
          else out.notifications[nameNode.text] = toSchema(returnsOf(property(literal, 'params')!), 0);
        }
      }
      if (ts.isInterfaceDeclaration(node) && node.name.text === 'EventData') {
        for (const member of checker.getPropertiesOfType(checker.getTypeAtLocation(node))) {
          const schema = toSchema(checker.getTypeOfSymbolAtLocation(member, node), 0);
          const doc = describe(member);
          out.events[member.getName()] = doc ? { description: doc, ...schema } : schema;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  return { results: sorted(out.results), notifications: sorted(out.notifications), events: sorted(out.events), components: sorted(out.components) };
}

export function renderWireSchemas(schemas: WireSchemas): string {
  return [
    '// Generated by `npm run schema:types` (scripts/wire-schemas.ts) from the TypeScript declarations in',
    '// src/protocol: the result of every method, the params of every notification, the data of every event.',
    '// Do not edit; a test fails when it is stale.',
    "import type { JsonSchema } from '../validate.ts';",
    '',
    'export interface WireTypes {',
    '  results: Record<string, JsonSchema>;',
    '  notifications: Record<string, JsonSchema>;',
    '  events: Record<string, JsonSchema>;',
    '  components: Record<string, JsonSchema>;',
    '}',
    '',
    `export const WIRE_TYPES: WireTypes = ${JSON.stringify(schemas, null, 2)};`,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(GENERATED, renderWireSchemas(generateWireSchemas()));
  process.stdout.write(`wrote ${GENERATED}\n`);
}
