import type { TSchema } from '@sinclair/typebox';

type JsonSchema = Record<string, unknown>;

/** Keywords of a declaration that only the params check reads (refusal.ts): not published. */
const UNPUBLISHED = new Set(['errorMessage']);

/**
 * Declarations as the OpenRPC document publishes them: plain JSON Schema, every schema named with
 * `$id` (AgentInfo, PaneInfo, ...) written once under components and referred to by `$ref`.
 */
export class Published {
  private readonly named = new Map<string, { schema: JsonSchema; text: string }>();

  schema(declared: TSchema): JsonSchema {
    return this.visit(JSON.parse(JSON.stringify(declared)) as unknown) as JsonSchema;
  }

  components(): Record<string, JsonSchema> {
    const sorted = [...this.named.entries()].sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(sorted.map(([name, { schema }]) => [name, schema]));
  }

  private visit(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.visit(item));
    if (typeof node !== 'object' || node === null) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$id' || UNPUBLISHED.has(key)) continue;
      out[key] = this.visit(value);
    }
    const name = (node as JsonSchema).$id;
    if (typeof name !== 'string') return out;
    const text = JSON.stringify(out);
    const known = this.named.get(name);
    if (known && known.text !== text) throw new Error(`two different schemas are named ${name}`);
    if (!known) this.named.set(name, { schema: out, text });
    return { $ref: `#/components/schemas/${name}` };
  }
}
