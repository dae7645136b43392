import { createHash, type KeyObject, randomBytes, sign } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  AuthorityKeyIdentifier,
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  GeneralSubtree,
  GeneralSubtrees,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_nameConstraints,
  id_ce_subjectAltName,
  id_ce_subjectKeyIdentifier,
  id_kp_serverAuth,
  KeyUsage,
  KeyUsageFlags,
  Name,
  NameConstraints,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

/**
 * X.509 certificates of the interception CA and its leaves, ECDSA P-256 with SHA-256: node makes
 * and signs with keys but has no API to write a certificate, and `@peculiar/asn1-x509` has the
 * schema of every structure, so only the choice of fields is ours.
 */

/** ecdsa-with-SHA256 (RFC 5758). */
const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
/** commonName and organizationName. */
const CN = '2.5.4.3';
const O = '2.5.4.10';

/** What a certificate says about its subject and issuer. */
export interface CertificateFields {
  subjectCn: string;
  issuerCn: string;
  /** The subject's public key. */
  publicKey: KeyObject;
  /** The issuer's key, which signs. */
  signingKey: KeyObject;
  /** The issuer's public key, for the authority key identifier. */
  issuerPublicKey: KeyObject;
  notBeforeMs: number;
  notAfterMs: number;
  /** A CA, limited to these DNS names and their sub-domains, and to no IP address. */
  ca?: { permittedDns: readonly string[] };
  /** A server's certificate for these DNS names. */
  dnsNames?: readonly string[];
}

/** The organisation every certificate names, so that a trust store shows whose CA it is. */
export const ORGANISATION = 'callrec-emulator';

function nameOf(cn: string): Name {
  const rdn = (type: string, text: string) =>
    new RelativeDistinguishedName([
      new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: text }) }),
    ]);
  return new Name([rdn(O, ORGANISATION), rdn(CN, cn)]);
}

/** RFC 5280's key identifier (method 1): the SHA-1 of the public key's bits. */
function keyId(key: KeyObject): ArrayBuffer {
  const spki = AsnConvert.parse(key.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo);
  const digest = createHash('sha1').update(new Uint8Array(spki.subjectPublicKey)).digest();
  return new Uint8Array(digest).buffer;
}

const ext = (extnID: string, critical: boolean, value: unknown) =>
  new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });

/** A positive serial of 16 random bytes: unique is all it must be (RFC 5280 allows 20). */
function serial(): ArrayBuffer {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] as number) & 0x7f) | 0x01;
  return new Uint8Array(bytes).buffer;
}

/**
 * Builds and signs one certificate, DER.
 * @example makeCertificate({ subjectCn: 'api.twilio.com', dnsNames: ['api.twilio.com'], … }) // <Buffer 30 82 01 …>
 */
export function makeCertificate(f: CertificateFields): Buffer {
  const extensions = [
    ext(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(keyId(f.publicKey))),
    ext(
      id_ce_authorityKeyIdentifier,
      false,
      new AuthorityKeyIdentifier({ keyIdentifier: new OctetString(keyId(f.issuerPublicKey)) }),
    ),
  ];
  if (f.ca !== undefined) {
    const subtree = (base: GeneralName) => new GeneralSubtree({ base });
    extensions.push(
      ext(id_ce_basicConstraints, true, new BasicConstraints({ cA: true, pathLenConstraint: 0 })),
      ext(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign)),
      // Critical, as RFC 5280 asks: a client that cannot honour the limits must not trust the CA.
      ext(
        id_ce_nameConstraints,
        true,
        new NameConstraints({
          permittedSubtrees: new GeneralSubtrees(
            f.ca.permittedDns.map((d) => subtree(new GeneralName({ dNSName: d }))),
          ),
          excludedSubtrees: new GeneralSubtrees([
            subtree(new GeneralName({ iPAddress: '0.0.0.0/0' })),
            subtree(new GeneralName({ iPAddress: '::/0' })),
          ]),
        }),
      ),
    );
  }
  if (f.dnsNames !== undefined) {
    extensions.push(
      ext(id_ce_basicConstraints, true, new BasicConstraints({ cA: false })),
      ext(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature)),
      ext(id_ce_extKeyUsage, false, new ExtendedKeyUsage([id_kp_serverAuth])),
      ext(
        id_ce_subjectAltName,
        false,
        new SubjectAlternativeName(f.dnsNames.map((d) => new GeneralName({ dNSName: d }))),
      ),
    );
  }
  const algorithm = new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 });
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: serial(),
    signature: algorithm,
    issuer: nameOf(f.issuerCn),
    validity: new Validity({
      notBefore: new Date(f.notBeforeMs),
      notAfter: new Date(f.notAfterMs),
    }),
    subject: nameOf(f.subjectCn),
    subjectPublicKeyInfo: AsnConvert.parse(f.publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo),
    extensions: new Extensions(extensions),
  });
  const tbsDer = Buffer.from(AsnConvert.serialize(tbs));
  // node signs EC keys in DER (r, s), which is what X.509 carries.
  const signature = sign('sha256', tbsDer, f.signingKey);
  const cert = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: algorithm,
    signatureValue: new Uint8Array(signature).buffer,
  });
  return Buffer.from(AsnConvert.serialize(cert));
}

/**
 * The DNS names a CA certificate's name constraints permit; empty when it has none.
 * @example permittedNames(caDer) // ['twilio.com']
 */
export function permittedNames(der: Buffer): string[] {
  const cert = AsnConvert.parse(der, Certificate);
  const found = cert.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_nameConstraints);
  if (found === undefined) return [];
  const nc = AsnConvert.parse(found.extnValue, NameConstraints);
  return [...(nc.permittedSubtrees ?? [])].flatMap((s) => (s.base.dNSName === undefined ? [] : [s.base.dNSName]));
}

/** PEM text of a DER certificate. */
export function pemOf(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
