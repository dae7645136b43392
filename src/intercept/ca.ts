import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, X509Certificate } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext, type SecureContext } from 'node:tls';
import { problems, ValidationError } from '../errors';
import { javaTrustStore } from './java-trust-store';
import { makeCertificate, ORGANISATION, pemOf, permittedNames } from './x509';

/**
 * The interception CA: made once, kept in a folder, so that a machine or a CI run trusts it once.
 * `ca-key.pem` (its key and certificate, 0600) is the CA; `ca.pem` and `ca.jks` (Java's trust
 * store) are written from it at every start, so removing them loses nothing.
 */
export interface LocalCa {
  /** The files to trust: PEM, and the Java trust store. */
  readonly certFile: string;
  readonly javaTrustStoreFile: string;
  /** Where the CA's key is kept. */
  readonly keyFile: string;
  readonly certPem: string;
  readonly key: KeyObject;
  readonly publicKey: KeyObject;
  readonly notAfterMs: number;
}

export const CA_KEY_FILE = 'ca-key.pem';
export const CA_CERT_FILE = 'ca.pem';
export const CA_JAVA_FILE = 'ca.jks';

const DAY_MS = 86_400_000;
/** Ten years: "the CA lives as long as the file". */
const CA_DAYS = 3650;
/** A leaf's life: within the 398 days browsers and Apple's stack accept of any server certificate. */
const LEAF_DAYS = 397;
/** A day back from now, for clocks of clients a little behind this one. */
const SKEW_MS = DAY_MS;
const CA_NAME = 'callrec-emulator interception CA';

const ecKeys = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

/** Writes a file whole or not at all: readers of the folder never see half of one. */
function writeWhole(path: string, bytes: string | Buffer, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes, { mode });
  renameSync(tmp, path);
}

/** A new CA's file: its key and its certificate, PEM, limited to `names` and their sub-domains. */
function makeCa(names: readonly string[], nowMs: number): string {
  const { privateKey, publicKey } = ecKeys();
  const der = makeCertificate({
    subjectCn: CA_NAME,
    issuerCn: CA_NAME,
    publicKey,
    signingKey: privateKey,
    issuerPublicKey: publicKey,
    notBeforeMs: nowMs - SKEW_MS,
    notAfterMs: nowMs + CA_DAYS * DAY_MS,
    ca: { permittedDns: names },
  });
  return `${privateKey.export({ type: 'pkcs8', format: 'pem' }) as string}${pemOf(der)}`;
}

/**
 * Puts a CA's file in place unless one is there: written aside and linked into place, so that of
 * two emulators starting at once (workers, replicas) one makes it and the other reads that one.
 */
function placeUnlessThere(keyFile: string, text: string): void {
  const tmp = `${keyFile}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  try {
    linkSync(tmp, keyFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
}

/** Whether a name is one of the CA's, or a sub-domain of one (RFC 5280's dNSName subtrees). */
const within = (host: string, names: readonly string[]) => names.some((n) => host === n || host.endsWith(`.${n}`));

/**
 * The CA kept in `dir`, made (limited to `names` and their sub-domains) if the folder has none.
 * Throws a ValidationError naming the file when the CA there cannot serve these names.
 * @example loadCa('/home/me/.callrec-emulator/ca', ['twilio.com'], Date.now()).certFile // '/home/me/.callrec-emulator/ca/ca.pem'
 */
export function loadCa(dir: string, names: readonly string[], nowMs: number): LocalCa {
  const keyFile = join(dir, CA_KEY_FILE);
  let text: string;
  const fsProblem = (err: unknown) =>
    new ValidationError('--ca-dir', problems.caCannotWrite(dir, (err as NodeJS.ErrnoException).code ?? String(err)));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    text = readFileSync(keyFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fsProblem(err);
    const made = makeCa(names, nowMs);
    try {
      placeUnlessThere(keyFile, made);
      text = readFileSync(keyFile, 'utf8');
    } catch (e) {
      throw fsProblem(e);
    }
  }
  const certPem = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----\n?/.exec(text)?.[0];
  let key: KeyObject;
  let cert: X509Certificate;
  try {
    if (certPem === undefined) throw new Error('no certificate');
    key = createPrivateKey(text);
    cert = new X509Certificate(certPem);
    if (!cert.ca || !cert.checkPrivateKey(key)) throw new Error('not a CA with its key');
  } catch (err) {
    throw new ValidationError('--ca-dir', problems.caUnusable(keyFile, (err as Error).message));
  }
  const permitted = permittedNames(cert.raw);
  for (const name of names) {
    if (!within(name, permitted)) throw new ValidationError('--ca-dir', problems.caNotFor(keyFile, name, permitted));
  }
  const notAfterMs = Date.parse(cert.validTo);
  if (notAfterMs <= nowMs) throw new ValidationError('--ca-dir', problems.caExpired(keyFile));
  const certFile = join(dir, CA_CERT_FILE);
  const javaTrustStoreFile = join(dir, CA_JAVA_FILE);
  try {
    writeWhole(certFile, certPem as string, 0o644);
    writeWhole(javaTrustStoreFile, javaTrustStore(ORGANISATION, cert.raw, Date.parse(cert.validFrom)), 0o644);
    chmodSync(keyFile, 0o600);
  } catch (err) {
    throw fsProblem(err);
  }
  return {
    certFile,
    javaTrustStoreFile,
    keyFile,
    certPem: certPem as string,
    key,
    publicKey: createPublicKey(key),
    notAfterMs,
  };
}

/** Leaf contexts kept at most: hosts are few, but a region and edge can name many. */
const LEAVES = 256;

/**
 * Server certificates minted from the CA on first use, one per host, all on one key made at
 * start-up; the CA's certificate goes with each, so a client that trusts it has the chain.
 */
export class LeafMint {
  private readonly keys = ecKeys();
  private readonly contexts = new Map<string, SecureContext>();
  private readonly keyPem: string;

  constructor(
    private readonly ca: LocalCa,
    private readonly now: () => number,
  ) {
    this.keyPem = this.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  }

  /** The TLS context presenting `host`'s certificate. */
  contextFor(host: string): SecureContext {
    const held = this.contexts.get(host);
    if (held !== undefined) return held;
    const nowMs = this.now();
    const der = makeCertificate({
      subjectCn: host,
      issuerCn: CA_NAME,
      publicKey: this.keys.publicKey,
      signingKey: this.ca.key,
      issuerPublicKey: this.ca.publicKey,
      notBeforeMs: nowMs - SKEW_MS,
      notAfterMs: Math.min(nowMs + LEAF_DAYS * DAY_MS, this.ca.notAfterMs),
      dnsNames: [host],
    });
    const context = createSecureContext({
      key: this.keyPem,
      cert: `${pemOf(der)}${this.ca.certPem}`,
      minVersion: 'TLSv1.2',
    });
    if (this.contexts.size >= LEAVES) this.contexts.delete(this.contexts.keys().next().value as string);
    this.contexts.set(host, context);
    return context;
  }
}
