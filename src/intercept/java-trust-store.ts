import { createHash } from 'node:crypto';

/**
 * A Java trust store (JKS) holding one trusted certificate, so that `JAVA_TOOL_OPTIONS` is all a
 * JVM needs: JKS is the one format every Java from 8 to today reads as a trust store without
 * keytool (a PKCS#12 of certificates only counts in Java when it carries an Oracle-specific
 * attribute, and its MAC needs PKCS#12's own key derivation).
 */

/** The store's password: Java's own convention for trust stores. */
export const TRUST_STORE_PASSWORD = 'changeit';

const MAGIC = 0xfeedfeed;
const VERSION = 2;
const TRUSTED_CERT = 2;

/** Java's modified UTF-8 with its two-byte length, as DataOutputStream.writeUTF writes (ASCII here). */
function utf(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/**
 * The bytes of a JKS store with `der` trusted under `alias`, dated `dateMs`, and sealed (as
 * Java's JavaKeyStore does) with the SHA-1 of the password in UTF-16BE, "Mighty Aphrodite" and
 * the store.
 * @example javaTrustStore('callrec-emulator', caDer, 1764000000000) // <Buffer fe ed fe ed 00 00 00 02 …>
 */
export function javaTrustStore(alias: string, der: Buffer, dateMs: number): Buffer {
  const date = Buffer.alloc(8);
  date.writeBigUInt64BE(BigInt(dateMs));
  const body = Buffer.concat([
    u32(MAGIC),
    u32(VERSION),
    u32(1),
    u32(TRUSTED_CERT),
    utf(alias),
    date,
    utf('X.509'),
    u32(der.length),
    der,
  ]);
  const password = Buffer.from(TRUST_STORE_PASSWORD, 'utf16le').swap16();
  const seal = createHash('sha1').update(password).update('Mighty Aphrodite', 'utf8').update(body).digest();
  return Buffer.concat([body, seal]);
}
