import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsFiles {
  cert: string;
  key: string;
  /** The certificate's SHA-256 fingerprint, for the person to compare in the browser. */
  fingerprint: string;
}

/** The user's certificate and key, read as they are. */
export function readTls(certFile: string, keyFile: string): TlsFiles {
  const cert = readFileSync(certFile, 'utf8');
  return { cert, key: readFileSync(keyFile, 'utf8'), fingerprint: new X509Certificate(cert).fingerprint256 };
}

/**
 * A self-signed certificate for `names`, made once with openssl into `folder` (0700) and kept, so a
 * browser that accepted it once keeps accepting it.
 */
export function selfSignedTls(folder: string, names: readonly string[]): TlsFiles {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const certFile = join(folder, 'web-cert.pem');
  const keyFile = join(folder, 'web-key.pem');
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    const san = names.map((name) => (/^[\d.]+$/.test(name) || name.includes(':') ? `IP:${name}` : `DNS:${name}`)).join(',');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '825', '-subj', '/CN=corral web', '-addext', `subjectAltName=${san}`, '-keyout', `${keyFile}.tmp`, '-out', `${certFile}.tmp`], { stdio: 'ignore' });
    writeFileSync(keyFile, readFileSync(`${keyFile}.tmp`), { mode: 0o600 });
    writeFileSync(certFile, readFileSync(`${certFile}.tmp`), { mode: 0o644 });
  }
  return readTls(certFile, keyFile);
}
