import { CorralError } from '../../protocol/errors.ts';
import { RegionReader } from '../../detect/regions.ts';
import { parseRegion, RELATIVE } from '../../detect/region-spec.ts';
import type { ScreenSnapshot } from '../../terminal/snapshot.ts';

/**
 * The rows of one region of a screen, cut as manifest rules cut it (src/detect/regions.ts):
 * `above_prompt_box` is what an agent drew above its composer, the working line included.
 */
export function regionRows(snapshot: ScreenSnapshot, name: string): readonly string[] {
  const spec = parseRegion(name);
  if (typeof spec === 'string') throw new CorralError('invalid_params', spec, { field: 'region' });
  if (RELATIVE.has(spec.kind) || spec.kind === 'osc_title' || spec.kind === 'osc_progress') {
    throw new CorralError('invalid_params', `region ${spec.name} is not rows of the screen (it needs a rule's anchor, or is the OSC title or progress); name a screen region such as above_prompt_box`, { field: 'region' });
  }
  return new RegionReader({ lines: snapshot.lines, title: snapshot.title, progress: snapshot.progress, wrapped: snapshot.wrapped }).get(spec).lines;
}
