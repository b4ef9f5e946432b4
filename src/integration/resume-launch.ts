import type { ManifestSpec } from '../detect/manifest-spec.ts';
import type { Launch } from './launch.ts';
import { runsInlineScript, throughWrappers } from './wrapper.ts';

/**
 * The launch that resumes `session` of `agent`: the manifest's `[resume]` arguments added to the
 * arguments of the program inside whatever wrappers start it (`env`, `sh -c`, `node`: wrapper.ts), not
 * after the wrapper's: after an `sh -c` script they would only be its $0 and $1. Null when the agent
 * declares no resume form, or the program sits in a shell script not read as plain words: the pane
 * then starts fresh, as its command says.
 */
export function resumeLaunch(launch: Launch, manifests: readonly ManifestSpec[], agent: string, session: string): Launch | null {
  const form = manifests.find((spec) => spec.id === agent)?.resume;
  if (!form) return null;
  const { inner, wrap } = throughWrappers(launch)!;
  if (runsInlineScript(inner)) return null;
  const added = form.args.map((arg) => arg.replaceAll('{session}', session));
  return wrap({ ...inner, args: [...inner.args, ...added] });
}
