// The programs benches run in panes.
import { fileURLToPath } from 'node:url';

/** bench/lib/busy-agent.sh: a Claude-like working screen redrawn ten times a second. */
export const BUSY_AGENT = fileURLToPath(new URL('./busy-agent.sh', import.meta.url));
