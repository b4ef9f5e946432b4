import { fileURLToPath } from 'node:url';

/**
 * The price table shipped with Corral (docs/usage.md). Resolved from a file two folders below the
 * checkout, as the bundle (dist/cli/) is, so the path holds in both.
 */
export const BUNDLED_PRICES = fileURLToPath(new URL('../../prices/prices.toml', import.meta.url));
