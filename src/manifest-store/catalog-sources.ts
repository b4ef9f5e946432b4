import { join } from 'node:path';
import { readRegularFile } from './read-regular-file.ts';

/** The file in the catalog folder that records where each installed manifest came from. */
export const CATALOG_SOURCES_FILE = 'sources.json';
/** sources.json holds one short record per installed manifest; anything larger is not ours. */
export const CATALOG_SOURCES_MAX_BYTES = 1024 * 1024;

export interface CatalogRecord {
  version: string;
  source: string;
  installed_at: string;
}

export function readCatalogRecords(dir: string): Record<string, CatalogRecord> {
  try {
    const parsed = JSON.parse(readRegularFile(join(dir, CATALOG_SOURCES_FILE), CATALOG_SOURCES_MAX_BYTES)) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, CatalogRecord>) : {};
  } catch {
    return {};
  }
}

export function readCatalogSources(dir: string): Map<string, string> {
  return new Map(Object.entries(readCatalogRecords(dir)).map(([id, record]) => [id, record.source]));
}
