import { parse, TomlError } from 'smol-toml';
import { readRegularFileBytes, RegularFileError } from '../../manifest-store/regular-file.ts';
import { isPlainObject } from '../../protocol/plain-object.ts';
import type { UsageTokens } from '../../protocol/usage.ts';

/** A price table larger than this is not a price table. */
const MAX_PRICES_BYTES = 256 * 1024;
const MAX_MODELS = 1000;
const PRICE_KEYS = ['input', 'output', 'cache_read', 'cache_write'] as const;

/** Dollars (or the table's currency) per million tokens of each kind. */
interface ModelPrice {
  match: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export class PriceTableError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

/**
 * The prices cost is figured by (docs/usage.md, "The price table"): TOML with `version`, `date`,
 * `currency` and `[[models]]`, checked strictly (an unknown key, a negative price, a duplicate match
 * are errors). A user's table wins model by model over the bundled one; its version joins the name.
 */
export class PriceTable {
  private constructor(
    readonly version: string,
    readonly currency: string,
    private readonly prices: readonly ModelPrice[],
  ) {}

  static parse(text: string, file: string): PriceTable {
    const fail = (problem: string): never => {
      throw new PriceTableError(file, problem);
    };
    if (Buffer.byteLength(text) > MAX_PRICES_BYTES) fail(`the file is over ${MAX_PRICES_BYTES} bytes`);
    let document: Record<string, unknown> = {};
    try {
      document = parse(text) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof TomlError) fail(`not valid TOML: ${error.message.split('\n')[0]}`);
      throw error;
    }
    for (const key of Object.keys(document)) if (!['version', 'date', 'currency', 'models'].includes(key)) fail(`unknown key "${key}" (known: version, date, currency, models)`);
    const version = document['version'];
    if (typeof version !== 'string' || !/^[\w.+-]{1,40}$/.test(version)) fail('"version" must be a short name (letters, digits, . + - _)');
    const date = document['date'];
    if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !Number.isFinite(Date.parse(date))) fail('"date" must be a date as YYYY-MM-DD');
    const currency = document['currency'];
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) fail('"currency" must be a three-letter currency code, e.g. "USD"');
    const models = document['models'] ?? [];
    if (!Array.isArray(models) || models.length > MAX_MODELS) fail(`"models" must be an array of at most ${MAX_MODELS} tables ([[models]])`);
    const seen = new Set<string>();
    const prices = (models as unknown[]).map((entry, index) => {
      const where = `models[${index}]`;
      if (!isPlainObject(entry)) return fail(`${where} must be a table`);
      for (const key of Object.keys(entry)) if (key !== 'match' && !(PRICE_KEYS as readonly string[]).includes(key)) fail(`${where}: unknown key "${key}" (known: match, ${PRICE_KEYS.join(', ')})`);
      const match = entry['match'];
      if (typeof match !== 'string' || match === '' || match.length > 128 || match.slice(0, -1).includes('*')) fail(`${where}.match must be a model name, or a prefix ending in *`);
      if (seen.has(match as string)) fail(`${where}.match "${match as string}" is listed twice`);
      seen.add(match as string);
      const price = (key: (typeof PRICE_KEYS)[number]): number => {
        const value = entry[key];
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1e6) return fail(`${where}.${key} must be a price per million tokens from 0 to 1000000`);
        return value;
      };
      return { match: match as string, input: price('input'), output: price('output'), cacheRead: price('cache_read'), cacheWrite: price('cache_write') };
    });
    return new PriceTable(version as string, currency as string, prices);
  }

  /** The bundled table, with the user's over it when `userFile` exists (an unusable user file is an error). */
  static load(bundledFile: string, userFile: string | null): PriceTable {
    const bundled = PriceTable.parse(readText(bundledFile)!, bundledFile);
    const user = userFile === null ? null : readText(userFile);
    if (user === null) return bundled;
    const own = PriceTable.parse(user, userFile!);
    if (own.currency !== bundled.currency) throw new PriceTableError(userFile!, `"currency" must be the bundled table's (${bundled.currency})`);
    const mine = new Set(own.prices.map((price) => price.match));
    return new PriceTable(`${bundled.version}+user.${own.version}`, bundled.currency, [...own.prices, ...bundled.prices.filter((price) => !mine.has(price.match))]);
  }

  /** The model's price: an exact match first, else the longest prefix; null when none ("no price"). */
  priceOf(model: string): ModelPrice | null {
    let best: ModelPrice | null = null;
    for (const price of this.prices) {
      if (price.match === model) return price;
      if (price.match.endsWith('*') && model.startsWith(price.match.slice(0, -1)) && (best === null || price.match.length > best.match.length)) best = price;
    }
    return best;
  }

  /** The cost of the tokens, or null when the model has no price. */
  cost(model: string, tokens: UsageTokens): number | null {
    const price = this.priceOf(model);
    if (price === null) return null;
    return (tokens.input * price.input + tokens.output * price.output + tokens.cacheRead * price.cacheRead + tokens.cacheWrite * price.cacheWrite) / 1e6;
  }
}

/** The file's text, null when absent; a regular file only, opened without blocking. */
function readText(file: string): string | null {
  try {
    return readRegularFileBytes(file, MAX_PRICES_BYTES + 1, { followSymlink: true, what: 'price table' }).bytes.toString('utf8');
  } catch (error) {
    if (error instanceof RegularFileError && error.code === 'file_absent') return null;
    if (error instanceof RegularFileError) throw new PriceTableError(file, error.problem);
    throw error;
  }
}
