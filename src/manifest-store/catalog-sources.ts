import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in the catalog folder that records where each installed manifest came from. */
export const CATALOG_SOURCES_FILE = 'sources.json';

export interface CatalogRecord {
  version: string;
  source: string;
  installed_at: string;
}

export function readCatalogRecords(dir: string): Record<string, CatalogRecord> {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, CATALOG_SOURCES_FILE), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, CatalogRecord>) : {};
  } catch {
    return {};
  }
}

export function readCatalogSources(dir: string): Map<string, string> {
  return new Map(Object.entries(readCatalogRecords(dir)).map(([id, record]) => [id, record.source]));
}
