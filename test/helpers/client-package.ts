// `corral/client` resolves to dist/client (package.json `exports`), built at install; an edited
// checkout rebuilds it here first, so tests never import stale code.
// @ts-expect-error: bin/build.mjs is plain JavaScript without declarations
import { buildClient, clientIsFresh } from '../../bin/build.mjs';

let building: Promise<void> | null = null;

export function freshClientPackage(): Promise<void> {
  building ??= (clientIsFresh() ? Promise.resolve() : buildClient()) as Promise<void>;
  return building;
}
