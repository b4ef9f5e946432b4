// The clients read the same file for the fleet's hosts, so the rule lives below both.
export { defaultConfigPath } from '../../protocol/config-path.ts';
