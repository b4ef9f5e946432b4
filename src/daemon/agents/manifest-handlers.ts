import type { ManifestLoadError } from '../../manifest-store/loader.ts';
import { SERVER_MANIFESTS, SERVER_RELOAD_MANIFESTS, type ManifestsResult } from '../../protocol/methods/manifests.ts';
import type { AgentService } from './agent-service.ts';
import { implement, type HandlerBinding } from '../rpc/handler.ts';

function listing(agents: AgentService): ManifestsResult {
  const { manifests, errors } = agents.manifests.list();
  return { manifests, errors: errors.map(problem) };
}

function problem(error: ManifestLoadError): ManifestsResult['errors'][number] {
  return {
    file: error.file,
    code: error.code,
    message: error.message,
    ...(error.line !== null ? { line: error.line } : {}),
    ...(error.column !== null ? { column: error.column } : {}),
  };
}

export function manifestHandlers(agents: AgentService): HandlerBinding[] {
  return [
    implement(SERVER_MANIFESTS, () => listing(agents)),
    implement(SERVER_RELOAD_MANIFESTS, async () => {
      await agents.reloadManifests();
      return listing(agents);
    }),
  ];
}
