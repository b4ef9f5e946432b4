// The hook's own entry point (bin/corral runs it for `corral report`): it loads nothing but the hook
// path, so an agent's hook costs about one bare Node start-up (`npm run bench -- hook`).
import { runReport } from './run.ts';

process.exitCode = await runReport(process.argv.slice(3));
